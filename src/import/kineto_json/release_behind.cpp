#include "import/kineto_json/release_behind.h"

#include <sys/mman.h>
#include <unistd.h>

namespace cuprobe {
namespace {

std::uintptr_t page_size() {
  static const auto size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

ReleaseBehind::ReleaseBehind(const void* begin, std::size_t bytes) {
  const auto at = reinterpret_cast<std::uintptr_t>(begin);
  const std::uintptr_t page = page_size();
  released_ = (at + page - 1) / page * page;  // the page holding the array's start may hold the allocator's header
  end_ = at + bytes;
}

void ReleaseBehind::read_up_to(const void* p) {
  constexpr std::uintptr_t kBatch = std::uintptr_t{4} << 20;
  const std::uintptr_t page = page_size();
  auto upto = reinterpret_cast<std::uintptr_t>(p);
  if (upto > end_) upto = end_;
  upto = upto / page * page;
  if (upto < released_ + kBatch && upto + page <= end_) return;  // batched: one call per few MiB
  if (upto <= released_) return;
  // Advice only: where the system declines, the pages stay until the array is freed, as without it.
  madvise(reinterpret_cast<void*>(released_), upto - released_, MADV_DONTNEED);
  released_ = upto;
}

}  // namespace cuprobe
