#include "report/kernel_display_name.h"

#include <algorithm>
#include <cctype>

namespace cuprobe {
namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The last identifier of the first qualified name in s, stopping at '(' or '<':
// "at::native::direct_copy_kernel_cuda(at::Tensor..." -> "direct_copy_kernel_cuda".
std::string_view last_component(std::string_view s) {
  std::string_view head = s.substr(0, std::min(s.size(), s.find_first_of("(<, ")));
  std::size_t colon = head.rfind("::");
  std::string_view last = colon == std::string_view::npos ? head : head.substr(colon + 2);
  while (!last.empty() && !is_ident(last.front())) last.remove_prefix(1);
  return last;
}

}  // namespace

std::string kernel_display_name(std::string_view name, std::size_t max_length) {
  if (name.starts_with("void ")) name.remove_prefix(5);
  std::size_t lt = name.find('<');
  std::size_t paren = name.find('(');
  std::string out;
  if (lt != std::string_view::npos && (paren == std::string_view::npos || lt < paren)) {
    out = std::string(last_component(name.substr(0, lt)));
    std::string_view inner = last_component(name.substr(lt + 1));
    if (!inner.empty() && !std::isdigit(static_cast<unsigned char>(inner.front()))) {
      out += "<" + std::string(inner) + ">";
    } else {
      out += "<>";
    }
  } else if (paren != std::string_view::npos) {
    out = std::string(last_component(name.substr(0, paren)));
  } else {
    out = std::string(name);
  }
  if (out.empty()) out = std::string(name);
  if (out.size() > max_length) out = out.substr(0, max_length - 3) + "...";
  return out;
}

}  // namespace cuprobe
