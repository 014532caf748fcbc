// A figure as a JSON number, or null where it has no value: not finite (NaN
// for "not read", inf), or a statistic over no samples. Never 0 for "none".
#pragma once

#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>

namespace cuprobe {

template <class Json = nlohmann::json>
Json number_or_null(double v, std::size_t count = 1) {
  return count == 0 || !std::isfinite(v) ? Json() : Json(v);
}

}  // namespace cuprobe
