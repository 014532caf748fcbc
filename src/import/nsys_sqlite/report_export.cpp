#include "import/nsys_sqlite/report_export.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "common/error.h"
#include "common/start_command.h"

namespace cuprobe {
namespace {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return false;
}

std::string shell_word(const std::string& s) {
  if (s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,:=@%") ==
      std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs argv to its end, its stdout on our stderr; returns its exit status, or
// throws Error when it cannot be started or is killed by a signal.
int run_to_completion(const std::vector<std::string>& args) {
  pid_t pid = start_command(args, true);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) throw Error(args[0] + " was killed by signal " + std::to_string(WTERMSIG(status)));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

bool is_nsys_report_name(const std::string& path) { return path.ends_with(".nsys-rep") || path.ends_with(".qdrep"); }

std::string export_nsys_report(const std::string& report, const std::string& dir) {
  std::string stem = std::filesystem::path(report).stem().string();
  std::string suggested = stem + ".sqlite";
  std::string command = "nsys export --type sqlite -o " + shell_word(suggested) + " " + shell_word(report);
  if (!std::filesystem::exists(report)) throw InputError(report, "no such file");
  if (!on_path("nsys")) {
    throw InputError(report,
                     "an Nsight Systems report: cuprobe reads its SQLite export, and nsys is not on PATH here; run `" +
                         command + "` where nsys is, then `cuprobe analyze " + shell_word(suggested) + "`");
  }
  std::string out = dir + "/report.sqlite";
  int rc = 0;
  try {
    rc = run_to_completion({"nsys", "export", "--type", "sqlite", "--quiet", "true", "-o", out, report});
  } catch (const Error& e) {
    throw InputError(report, std::string("nsys export failed: ") + e.what());
  }
  if (rc != 0 || !std::filesystem::exists(out)) {
    throw InputError(report, "`nsys export --type sqlite` failed (exit " + std::to_string(rc) +
                                 ", its messages are above); try `" + command + "` by hand");
  }
  return out;
}

}  // namespace cuprobe
