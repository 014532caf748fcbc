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

// The first template argument that is a name rather than a number:
// "4, at::native::FillFunctor<float>, ..." -> "FillFunctor".
std::string_view first_named_argument(std::string_view args) {
  int depth = 0;
  std::size_t arg_start = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    char c = i < args.size() ? args[i] : ',';
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (depth == 0)
        c = ',';  // the end of the argument list
      else
        --depth;
    }
    if (c == ',' && depth == 0) {
      std::string_view arg = args.substr(arg_start, i - arg_start);
      while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
      if (!arg.empty() && (std::isalpha(static_cast<unsigned char>(arg.front())) || arg.front() == '_')) {
        return last_component(arg);
      }
      if (i >= args.size() || args[i] == '>') break;
      arg_start = i + 1;
    }
  }
  return {};
}

}  // namespace

std::string kernel_display_name(std::string_view full_name, std::size_t max_length) {
  std::string cleaned(full_name);
  for (std::size_t at; (at = cleaned.find("(anonymous namespace)::")) != std::string::npos;) cleaned.erase(at, 23);
  std::string_view name = cleaned;
  if (name.starts_with("void ")) name.remove_prefix(5);
  std::size_t lt = name.find('<');
  std::size_t paren = name.find('(');
  std::string out;
  if (lt != std::string_view::npos && (paren == std::string_view::npos || lt < paren)) {
    out = std::string(last_component(name.substr(0, lt)));
    out += '<';
    out += first_named_argument(name.substr(lt + 1));
    out += '>';
  } else if (paren != std::string_view::npos && name.substr(0, paren).find(' ') == std::string_view::npos) {
    out = std::string(last_component(name.substr(0, paren)));
  } else {
    out = std::string(name);
  }
  if (out.empty()) out = std::string(full_name);
  if (out.size() > max_length) {
    out.resize(max_length - 3);
    out += "...";
  }
  return out;
}

}  // namespace cuprobe
