// Checked reads of JSON documents cuprobe wrote and reads back (a bench result
// for `report --bench`, its request lines): a key that is missing, or holds
// another type, gives the fallback, never undefined behaviour (a const
// operator[] on a missing key) nor the JSON library's exception text; an
// integer from a float is taken only when it fits. Issue 39.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace cuprobe {

// The member `key` of `j`, or null when `j` is no object or lacks it.
template <typename Json>
const Json& json_at(const Json& j, std::string_view key) {
  static const Json null_value;
  if (!j.is_object()) return null_value;
  auto it = j.find(key);
  return it == j.end() ? null_value : *it;
}

// `j` as T (bool, an arithmetic type, std::string), or `fallback` when it holds another type or does not fit.
template <typename T, typename Json>
T json_as(const Json& j, T fallback) {
  if constexpr (std::same_as<T, bool>) {
    return j.is_boolean() ? j.template get<bool>() : fallback;
  } else if constexpr (std::same_as<T, std::string>) {
    return j.is_string() ? j.template get<std::string>() : fallback;
  } else if constexpr (std::floating_point<T>) {
    return j.is_number() ? j.template get<T>() : fallback;
  } else {
    static_assert(std::integral<T>);
    if (j.is_number_integer()) {
      if (j.is_number_unsigned()) {
        auto u = j.template get<std::uint64_t>();
        return u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()) ? static_cast<T>(u) : fallback;
      }
      auto s = j.template get<std::int64_t>();
      return s >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                     (s < 0 ||
                      static_cast<std::uint64_t>(s) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
                 ? static_cast<T>(s)
                 : fallback;
    }
    if (j.is_number_float()) {
      double d = j.template get<double>();
      // Within the range (2^63 itself is not an int64): the cast is defined.
      if (std::isfinite(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
          d < static_cast<double>(std::numeric_limits<T>::max()))
        return static_cast<T>(d);
    }
    return fallback;
  }
}

// The member `key` of `j` as T, or `fallback` (missing, another type, out of range).
template <typename T, typename Json>
T json_get(const Json& j, std::string_view key, T fallback) {
  return json_as<T>(json_at(j, key), fallback);
}

}  // namespace cuprobe
