// Turns a failed backend step into the one line a user sees: what is wrong and
// what to do. Counter problems exit with code 3, bad metric lists with 2.
#pragma once

#include <string>

#include "collect/counters/pm_backend.h"
#include "common/error.h"

namespace cuprobe {

// `gpu` < 0 when the failure is not about one device. `chip` may be empty.
std::string counter_refusal_message(const BackendStatus& status, int gpu, const std::string& chip = "");
int counter_refusal_exit_code(CounterStatus code);
Error counter_refusal(const BackendStatus& status, int gpu, const std::string& chip = "");

}  // namespace cuprobe
