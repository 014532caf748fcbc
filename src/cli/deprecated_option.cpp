#include "cli/deprecated_option.h"

#include <cstdio>

namespace cuprobe {

void add_deprecated_alias(CLI::App& app, CLI::Option* current, const std::string& old_name) {
  std::string name = current->get_name();
  std::string warning = app.get_name() + ": " + old_name + " is deprecated, use " + name + "\n";
  app.add_option_function<std::string>(
         old_name,
         [current, old_name, name, warning](const std::string& value) {
           if (current->count() > 0)
             throw CLI::ValidationError(old_name, "the old spelling of " + name + ": give only one");
           std::fputs(warning.c_str(), stderr);
           current->add_result(value);
           current->run_callback();  // validates, then sets the variable
         },
         "deprecated spelling of " + name)
      ->group("");  // hidden
}

}  // namespace cuprobe
