// A small valid run file with a row in every table the importer reads (the
// run-file targets' seed, and the base the cell mutations start from).
#pragma once

#include <string>

namespace cuprobe::fuzz {

void write_sample_run_file(const std::string& path);

}  // namespace cuprobe::fuzz
