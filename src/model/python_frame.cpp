#include "model/python_frame.h"

#include <cctype>

namespace cuprobe {

std::optional<PythonFrame> parse_python_frame(std::string_view name) {
  std::size_t colon = name.find("): ");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::size_t open = name.rfind('(', colon);
  if (open == std::string_view::npos || open == 0 || open + 1 == colon) return std::nullopt;
  int line = 0;
  for (std::size_t i = open + 1; i < colon; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])) || line > 100'000'000) return std::nullopt;
    line = line * 10 + (name[i] - '0');
  }
  PythonFrame f;
  f.file = name.substr(0, open);
  f.line = line;
  f.function = name.substr(colon + 3);
  if (f.function.empty()) return std::nullopt;
  return f;
}

namespace {

// Packages whose frames are not the user's code. torch.profiler names a file by its path below the sys.path entry
// it was found in ("torch/nn/modules/module.py", "transformers/models/llama/modeling_llama.py", "contextlib.py"),
// so the first path component says which package it is.
constexpr std::string_view kLibraries[] = {
    "torch",
    "transformers",
    "huggingface_hub",
    "accelerate",
    "triton",
    "vllm",
    "sglang",
    "flash_attn",
    "flashinfer",
    "xformers",
    "safetensors",
    "tokenizers",
    "numpy",
    "deepspeed",
    "peft",
    "bitsandbytes",
    "einops",
    "apex",
    "torchvision",
    "torchaudio",
    "diffusers",
    "tensorrt_llm",
    "fbgemm_gpu",
    "transformer_engine",
    "megatron",
    "lightning",
    "pytorch_lightning",
    "functorch",
    "torchao",
    "optimum",
    "datasets",
    "typing_extensions",
    "sympy",
    "jinja2",
    "regex",
    "tqdm",
    "packaging",
    "filelock",
    "fsspec",
    "_pytest",
    "pytest",
};

// The standard library's modules that frames come from (single files below the sys.path entry; packages by their
// directory).
constexpr std::string_view kStandardLibrary[] = {
    "abc",       "ast",         "asyncio",   "bisect",          "codecs",     "collections", "concurrent", "contextlib",
    "copy",      "copyreg",     "ctypes",    "dataclasses",     "dis",        "email",       "encodings",  "enum",
    "functools", "genericpath", "gzip",      "heapq",           "importlib",  "inspect",     "io",         "json",
    "keyword",   "linecache",   "logging",   "multiprocessing", "numbers",    "operator",    "os",         "pathlib",
    "pickle",    "posixpath",   "queue",     "random",          "re",         "reprlib",     "runpy",      "selectors",
    "shutil",    "signal",      "socket",    "string",          "subprocess", "tempfile",    "textwrap",   "threading",
    "token",     "tokenize",    "traceback", "types",           "typing",     "unittest",    "urllib",     "uuid",
    "warnings",  "weakref",     "zipfile",
};

}  // namespace

bool is_user_python_file(std::string_view file) {
  if (!file.ends_with(".py") || file.starts_with("<")) return false;
  for (std::string_view installed : {"site-packages/", "dist-packages/", "/lib/python", "lib/python3"}) {
    if (file.find(installed) != std::string_view::npos) return false;
  }
  std::size_t slash = file.find('/');
  std::string_view first = slash == std::string_view::npos ? file.substr(0, file.size() - 3) : file.substr(0, slash);
  for (std::string_view library : kLibraries) {
    if (first == library) return false;
  }
  for (std::string_view module : kStandardLibrary) {
    if (first == module) return false;
  }
  // An absolute path into PyTorch's tree (a source build on sys.path by its full path).
  return file.find("/torch/") == std::string_view::npos;
}

std::string_view python_file_base(std::string_view file) {
  std::size_t slash = file.find_last_of("/\\");
  return slash == std::string_view::npos ? file : file.substr(slash + 1);
}

}  // namespace cuprobe
