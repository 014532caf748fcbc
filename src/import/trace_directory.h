// A directory given where trace files are expected: every trace file in it
// (not its subdirectories), one per rank, in name order. What is not a trace is
// skipped and listed with why. A file is a trace when it is an SQLite file
// cuprobe reads (run file, Nsight Systems export), an Nsight Systems report
// (.nsys-rep, .qdrep; skipped when its export lies beside it), or JSON
// (plain, gzip, xz) that is a Chrome trace (a top-level array, or an object
// with "traceEvents" in its first MiB) or rocprofv3's output (an object whose
// first key is "rocprofiler-sdk-tool"): import/trace_format.h decides. A file named like a trace (.json,
// .json.gz, .json.xz, .cuprobe, .sqlite) whose bytes are neither JSON nor
// SQLite is kept, so that loading it says what is wrong with it; valid JSON
// that is no trace (a bench report) and other files are skipped.
#pragma once

#include <string>
#include <vector>

namespace cuprobe {

struct TraceDirectory {
  std::vector<std::string> traces;   // paths, sorted
  std::vector<std::string> skipped;  // "NAME (why)"
};

// Throws InputError when the directory cannot be read.
TraceDirectory list_trace_directory(const std::string& dir);

}  // namespace cuprobe
