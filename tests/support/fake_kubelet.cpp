#include "support/fake_kubelet.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "support/run_cuprobe.h"
#include "support/test_paths.h"

namespace cuprobe::test {

std::string python_with_grpc() {
  for (const char* python : {"/usr/bin/python3", "/usr/local/bin/python3"}) {
    if (access(python, X_OK) != 0) continue;
    if (run_program(python, {"-c", "import grpc"}).exit_code == 0) return python;
  }
  return "";
}

std::unique_ptr<BackgroundProcess> start_fake_kubelet(const std::string& dir, const std::string& mode,
                                                      const std::vector<std::string>& gpus) {
  std::vector<std::string> args = {std::string(CUPROBE_SOURCE_DIR) + "/tests/support/fake_kubelet.py", "--socket",
                                   fake_kubelet_socket(dir), "--mode", mode};
  for (const auto& g : gpus) {
    args.push_back("--gpu");
    args.push_back(g);
  }
  auto p = std::make_unique<BackgroundProcess>(python_with_grpc(), args, dir + "/kubelet");
  for (int i = 0; i < 200; ++i) {
    struct stat st {};
    if (stat(fake_kubelet_socket(dir).c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) return p;
    if (!p->running()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return nullptr;
}

}  // namespace cuprobe::test
