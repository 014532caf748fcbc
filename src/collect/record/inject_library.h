// Where `cuprobe record` finds the injected library (libcuprobe_inject.so) when
// --inject-library is not given.
#pragma once

#include <string>
#include <vector>

namespace cuprobe {

// Beside the cuprobe binary (the build tree), then where `cmake --install` puts
// it: PREFIX/bin/cuprobe, PREFIX/lib/cuprobe/ (CUPROBE_INJECT_INSTALL_DIR in the
// top-level CMakeLists.txt: the library dir with multiarch, e.g. lib/x86_64-linux-gnu/cuprobe).
std::vector<std::string> inject_library_candidates();

// $CUPROBE_INJECT_LIBRARY when set, else the first candidate that exists, else
// the first candidate (so a "not found" message names where it looked first).
std::string default_inject_library();

// Why an existing `path` cannot be an injection library (not a regular file,
// not readable, not ELF); empty when it may be one or does not exist (then the
// session records counters only, and says so). CUDA loads whatever CUDA_INJECTION64_PATH names, so
// a wrong file is refused before the command starts.
std::string inject_library_problem(const std::string& path);

// Whether `path` is an ELF program (it names a program interpreter): the loader
// refuses to preload one, so `record` injects it without LD_PRELOAD (the tests
// inject their own binary).
bool is_elf_program(const std::string& path);

}  // namespace cuprobe
