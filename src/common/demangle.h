// Itanium C++ ABI names ("_Z...") made readable, for every place a kernel name
// comes in: `record` (collect/record) and every imported trace (import/load_profiles).
#pragma once

#include <string>

namespace cuprobe {

// "void foo<int>(float*)" from "_Z3fooIiEvPf"; the input when it is not mangled (or cannot be demangled).
std::string demangle(const std::string& name);

}  // namespace cuprobe
