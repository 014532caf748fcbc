// A Python frame as torch.profiler names it with with_stack=True ("python_function" events):
// "path/to/model.py(123): forward". User frames are the ones a performance engineer edits: not the
// interpreter's library, site-/dist-packages (torch, transformers, ...) or code without a file.
#pragma once

#include <optional>
#include <string_view>

namespace cuprobe {

struct PythonFrame {
  std::string_view file;  // as the trace gives it (often an absolute path)
  int line = 0;
  std::string_view function;
};

// The frame a python_function event's name gives; none for names without "FILE(LINE): FUNCTION"
// ("<built-in method ...>", "nn.Module: Linear_0").
std::optional<PythonFrame> parse_python_frame(std::string_view name);

// The file is the user's: a .py file outside site-packages, dist-packages, the standard library and the
// libraries a model runs on (torch, transformers, vllm, ...: torch.profiler names files by their path below
// the sys.path entry, so "torch/nn/modules/module.py" and "contextlib.py" are the library's, "model.py" and
// "zoo/cast.py" the user's).
bool is_user_python_file(std::string_view file);

// "model.py": the file's last path component.
std::string_view python_file_base(std::string_view file);

}  // namespace cuprobe
