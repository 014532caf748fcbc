// A `.nsys-rep` report (`.qdrep` before nsys 2021.4) given directly: cuprobe
// reads its SQLite export, which `nsys export --type sqlite` writes. When nsys
// is on PATH cuprobe runs that itself; otherwise the one-line error says the
// command to run.
#pragma once

#include <string>

namespace cuprobe {

bool is_nsys_report_name(const std::string& path);

// Exports `report` into `dir` and returns the SQLite file's path. Runs
// `nsys export --type sqlite --quiet true -o OUT REPORT` with execvp (nsys's
// output goes to stderr). Throws InputError (naming the report) when nsys is
// not on PATH or the export fails.
std::string export_nsys_report(const std::string& report, const std::string& dir);

}  // namespace cuprobe
