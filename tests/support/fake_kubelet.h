// The fake kubelet (tests/support/fake_kubelet.py, python3-grpcio) started on a
// unix socket in a test's directory, and the Python that can run it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/background_process.h"

namespace cuprobe::test {

// Debian's python3 when it imports grpc, else "" (the tests then skip, saying why).
std::string python_with_grpc();

// Starts it (`mode`: ok, error, hang; `gpus`: "UUID=POD/NAMESPACE/CONTAINER") and waits for
// its socket, DIR/kubelet.sock; null when it did not come up within 10 s.
std::unique_ptr<BackgroundProcess> start_fake_kubelet(const std::string& dir, const std::string& mode,
                                                      const std::vector<std::string>& gpus = {});

inline std::string fake_kubelet_socket(const std::string& dir) { return dir + "/kubelet.sock"; }

}  // namespace cuprobe::test
