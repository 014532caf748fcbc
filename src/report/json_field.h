// Checked reads of JSON documents cuprobe wrote and reads back (a bench result
// for `report --bench`, its request lines): a key that is missing, or holds
// another type, gives the fallback, never undefined behaviour (a const
// operator[] on a missing key) nor the JSON library's exception text; an
// integer from a float is taken only when it fits. Issue 39. The json_need
// forms are for values a file must hold: one InputError naming the file, the
// key and what was found (exit 1), never the library's words.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace cuprobe {

// The member `key` of `j`, or null when `j` is no object or lacks it.
template <typename Json>
const Json& json_at(const Json& j, std::string_view key) {
  static const Json null_value;
  if (!j.is_object()) return null_value;
  auto it = j.find(key);
  return it == j.end() ? null_value : *it;
}

// `j` as T (bool, an arithmetic type, std::string), or nothing when it holds another type or does not fit.
template <typename T, typename Json>
std::optional<T> json_try(const Json& j) {
  if constexpr (std::same_as<T, bool>) {
    if (j.is_boolean()) return j.template get<bool>();
  } else if constexpr (std::same_as<T, std::string>) {
    if (j.is_string()) return j.template get<std::string>();
  } else if constexpr (std::floating_point<T>) {
    if (j.is_number()) return j.template get<T>();
  } else {
    static_assert(std::integral<T>);
    if (j.is_number_integer()) {
      if (j.is_number_unsigned()) {
        auto u = j.template get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(u);
        return std::nullopt;
      }
      auto s = j.template get<std::int64_t>();
      if (s >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
          (s < 0 || static_cast<std::uint64_t>(s) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())))
        return static_cast<T>(s);
      return std::nullopt;
    }
    if (j.is_number_float()) {
      double d = j.template get<double>();
      // Within the range (2^63 itself is not an int64): the cast is defined.
      if (std::isfinite(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
          d < static_cast<double>(std::numeric_limits<T>::max()))
        return static_cast<T>(d);
    }
  }
  return std::nullopt;
}

// `j` as T, or `fallback` when it holds another type or does not fit.
template <typename T, typename Json>
T json_as(const Json& j, T fallback) {
  return json_try<T>(j).value_or(fallback);
}

// What a T is, in words, for a message.
template <typename T>
const char* json_kind_words() {
  if constexpr (std::same_as<T, bool>)
    return "true or false";
  else if constexpr (std::same_as<T, std::string>)
    return "a string";
  else if constexpr (std::floating_point<T>)
    return "a number";
  else if constexpr (std::unsigned_integral<T>)
    return "a whole number, not negative, in range";
  else
    return "a whole number in range";
}

// What `j` holds, in words.
template <typename Json>
const char* json_found_words(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "true or false";
  if (j.is_string()) return "a string";
  if (j.is_number()) return "a number";
  if (j.is_array()) return "a list";
  return "an object";
}

// `j`, which `what` names (e.g. "ranks[2].step_ms"), as T; an InputError naming
// `file`, `what` and what was found instead when it holds another type or does
// not fit. For values a file of cuprobe's own must hold (issue 39).
template <typename T, typename Json>
T json_need_value(const Json& j, const std::string& file, const std::string& what) {
  if (auto v = json_try<T>(j)) return *v;
  throw InputError(file, what + ": expected " + json_kind_words<T>() + ", found " + json_found_words(j));
}

// The member `key` of `j` (`where` names `j`, e.g. "ranks[2]"; "" at the top), checked as above; "missing"
// when `j` has no such member (or is no object).
template <typename T, typename Json>
T json_need(const Json& j, std::string_view key, const std::string& file, const std::string& where = "") {
  std::string what = where.empty() ? std::string(key) : where + "." + std::string(key);
  if (!j.is_object() || j.find(key) == j.end()) throw InputError(file, what + ": missing");
  return json_need_value<T>(*j.find(key), file, what);
}

// The member `key` of `j`, which must be a list (an InputError as above otherwise).
template <typename Json>
const Json& json_need_list(const Json& j, std::string_view key, const std::string& file,
                           const std::string& where = "") {
  std::string what = where.empty() ? std::string(key) : where + "." + std::string(key);
  if (!j.is_object() || j.find(key) == j.end()) throw InputError(file, what + ": missing");
  const Json& v = *j.find(key);
  if (!v.is_array()) throw InputError(file, what + std::string(": expected a list, found ") + json_found_words(v));
  return v;
}

// The member `key` of `j` as T, or `fallback` (missing, another type, out of range).
template <typename T, typename Json>
T json_get(const Json& j, std::string_view key, T fallback) {
  return json_as<T>(json_at(j, key), fallback);
}

// The JSON library's exception in cuprobe's words, for a line that names the
// file itself: what is wrong and where, never "[json.exception.…]" (issue 39).
inline std::string json_error_words(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
    std::string at = "at byte " + std::to_string(parse->byte);
    if (what.find("ill-formed UTF-8") != std::string::npos) return "invalid UTF-8 in a string " + at;
    if (what.find("unexpected end of input") != std::string::npos)
      return "the JSON ends early " + at + ": is the file complete?";
    std::size_t dash = what.find(" - ");
    std::string reason = dash == std::string::npos ? "a syntax error" : what.substr(dash + 3);
    reason = reason.substr(0, reason.find("; last read"));
    if (reason.size() > 120) reason = reason.substr(0, 117) + "...";
    return "not valid JSON " + at + ": " + reason;
  }
  if (e.id == 316) return "a string that is not valid UTF-8";
  if (e.id == 406) return "a number too large for a double";
  if (dynamic_cast<const nlohmann::json::type_error*>(&e)) return "a value of another type than expected";
  if (dynamic_cast<const nlohmann::json::out_of_range*>(&e)) return "a key or element that is missing";
  return "a malformed JSON document";
}

}  // namespace cuprobe
