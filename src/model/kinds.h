// The kinds that leave the process by number (the record wire) or by name (run
// files, traces, `record --kinds`): each enum here has exactly one name table,
// and wire, store, importers and exporters all use it. Standard library only:
// the injected library includes it through wire/.
//
// Each X-list below makes both the enum and its table, so an enumerator cannot
// lack a name; the static_asserts check that names are non-empty and unique.
// Values are dense from 0 and travel on the record wire: append, never reorder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace cuprobe {

template <typename E>
struct EnumNames;  // names[i] is the name of the enumerator with value i

#define CUPROBE_ENUMERATOR(enumerator, name) enumerator,
#define CUPROBE_ENUM_NAME(enumerator, name) std::string_view{name},
#define CUPROBE_NAMED_ENUM(Enum, Underlying, LIST)                         \
  enum class Enum : Underlying { LIST(CUPROBE_ENUMERATOR) };               \
  template <>                                                              \
  struct EnumNames<Enum> {                                                 \
    static constexpr std::string_view names[] = {LIST(CUPROBE_ENUM_NAME)}; \
  };                                                                       \
  static_assert(enum_names_valid<Enum>(), #Enum ": every name non-empty and unique")

template <typename E>
constexpr bool enum_names_valid() {
  const auto& n = EnumNames<E>::names;
  for (std::size_t i = 0; i < std::size(n); ++i) {
    if (n[i].empty()) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (n[i] == n[j]) return false;
    }
  }
  return true;
}

// Direction of a memcpy, as CUPTI and Kineto name them (run files' memcpy.kind).
#define CUPROBE_MEMCPY_KINDS(X) \
  X(kUnknown, "unknown") X(kHtoD, "HtoD") X(kDtoH, "DtoH") X(kDtoD, "DtoD") X(kHtoH, "HtoH") X(kPtoP, "PtoP")
CUPROBE_NAMED_ENUM(MemcpyKind, std::uint8_t, CUPROBE_MEMCPY_KINDS);

// Where a recorded CPU range comes from (run files' ranges.kind).
#define CUPROBE_RANGE_KINDS(X) X(kNvtx, "nvtx") X(kRuntimeApi, "runtime") X(kDriverApi, "driver")
CUPROBE_NAMED_ENUM(RangeKind, std::uint16_t, CUPROBE_RANGE_KINDS);

// What `cuprobe record` can trace (`--kinds`, CUPROBE_RECORD_KINDS).
#define CUPROBE_ACTIVITY_KINDS(X) X(kKernel, "kernel") X(kMemcpy, "memcpy") X(kMemset, "memset") X(kNvtx, "nvtx")
CUPROBE_NAMED_ENUM(ActivityKind, std::uint8_t, CUPROBE_ACTIVITY_KINDS);

#undef CUPROBE_NAMED_ENUM
#undef CUPROBE_ENUM_NAME
#undef CUPROBE_ENUMERATOR

// All enumerators of E, in value order.
template <typename E>
constexpr std::size_t enum_count() {
  return std::size(EnumNames<E>::names);
}
template <typename E>
constexpr E enum_at(std::size_t i) {
  return static_cast<E>(i);
}

template <typename E>
constexpr std::string_view name_of(E value) {
  auto i = static_cast<std::size_t>(value);
  return i < enum_count<E>() ? EnumNames<E>::names[i] : std::string_view{};
}

// The name of a number read from outside (the wire); empty when no enumerator has it.
template <typename E>
constexpr std::string_view name_of_value(std::uint64_t value) {
  return value < enum_count<E>() ? EnumNames<E>::names[value] : std::string_view{};
}

template <typename E>
constexpr std::optional<E> from_name(std::string_view name) {
  for (std::size_t i = 0; i < enum_count<E>(); ++i) {
    if (EnumNames<E>::names[i] == name) return enum_at<E>(i);
  }
  return std::nullopt;
}

// The names every importer gives GPU activities that are not kernels, whatever the
// source spelled (Kineto "Memcpy HtoD (Pageable -> Device)", "Memset (Device)";
// run files a kind column), so that `diff` across formats pairs them.
inline constexpr std::string_view kMemsetActivityName = "Memset";
inline std::string memcpy_activity_name(MemcpyKind kind) { return "Memcpy " + std::string(name_of(kind)); }
// One launch of a whole CUDA graph (`record --graphs whole`); -1: graph unknown.
inline std::string graph_launch_activity_name(std::int64_t graph_id) {
  return graph_id < 0 ? std::string("CUDA graph (whole launch)")
                      : "CUDA graph " + std::to_string(graph_id) + " (whole launch)";
}

}  // namespace cuprobe
