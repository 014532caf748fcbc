// CUPTI's profiler host API dlopens libnvperf_host.so by name, which finds it
// only through the loader's paths (ld.so.conf, LD_LIBRARY_PATH). cuprobe opens
// it first, through its own rpath and then where the toolkit it was built with
// keeps it, so CUPTI's dlopen gets that copy. Opened only by the code that
// reads counters: linked as a dependency instead, the 32 MB library was loaded
// and initialised at every start, analyze included (a second of wall time on a
// busy machine, 100 M instructions of its static initialisation).
#pragma once

namespace cuprobe {

// Once per process; a library that does not open leaves CUPTI to fail and say so.
void load_nvperf_host();

}  // namespace cuprobe
