// --csv DIR for the verbs that write several CSV tables (analyze, diff): the
// directory checked at plan time, then the tables written into it together.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cuprobe {

// Refuses '-' (several tables cannot go to stdout): a usage error naming --json instead.
void check_csv_dir(const std::string& dir);

// Creates DIR if missing and writes each (name, text) into it, replaced together or none (common/atomic_file);
// `inputs` are the files read, never overwritten. Says what it wrote, as `verb`.
void write_csv_files(const char* verb, const std::string& dir,
                     const std::vector<std::pair<std::string, std::string>>& tables,
                     const std::vector<std::string>& inputs);

}  // namespace cuprobe
