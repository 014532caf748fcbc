#include "cli/csv_dir.h"

#include <filesystem>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/say.h"

namespace cuprobe {

void check_csv_dir(const std::string& dir) {
  if (dir == "-") throw Error("--csv names a directory for several tables, not stdout ('-'): use --json", kExitUsage);
}

void write_csv_files(const char* verb, const std::string& dir,
                     const std::vector<std::pair<std::string, std::string>>& tables,
                     const std::vector<std::string>& inputs) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("--csv: cannot create directory " + dir + ": " + ec.message());
  std::vector<std::pair<std::string, std::string>> files;
  std::string names;
  for (const auto& [name, text] : tables) {
    files.emplace_back((std::filesystem::path(dir) / name).string(), text);
    names += (names.empty() ? "" : ", ") + name;
  }
  write_files_atomically(files, inputs);  // replaced together, or none
  say(verb, "wrote %s in %s", names.c_str(), dir.c_str());
}

}  // namespace cuprobe
