#include "cli/hta_window_flag.h"

namespace cuprobe {

void add_hta_window_flag(CLI::App& app, std::string& text) {
  app.add_option("--hta-window", text,
                 "what idle time, launch delays, queue length and HTA's communication overlap cover: 'default' is\n"
                 "HTA's default (include_last_profiler_step=False: the last ProfilerStep left out), 'all' the whole "
                 "trace")
      ->check(CLI::IsMember({"default", "all"}));
}

void apply_hta_window_flag(const std::string& text, AnalyzeOptions& options) {
  options.hta_window = text == "all" ? HtaWindow::kAll : HtaWindow::kDefault;
}

}  // namespace cuprobe
