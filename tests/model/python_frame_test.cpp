#include "model/python_frame.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

TEST(PythonFrame, ParsesTorchProfilersFrameNames) {
  auto f = parse_python_frame("zoo/pool_cast.py(123): forward");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->file, "zoo/pool_cast.py");
  EXPECT_EQ(f->line, 123);
  EXPECT_EQ(f->function, "forward");
  auto m = parse_python_frame("gen_more.py(26): <module>");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->function, "<module>");
  EXPECT_FALSE(parse_python_frame("<built-in method to of Tensor object at 0x7f>"));
  EXPECT_FALSE(parse_python_frame("nn.Module: LlamaRMSNorm_0"));
  EXPECT_FALSE(parse_python_frame("model.py(12a): forward"));
  EXPECT_FALSE(parse_python_frame("model.py(12): "));
}

TEST(PythonFrame, TheUsersFilesAreNotTheLibrariesNorTheStandardLibrarys) {
  for (const char* user : {"gen_more.py", "model.py", "zoo/pool_cast.py", "/home/me/work/serve/engine.py"})
    EXPECT_TRUE(is_user_python_file(user)) << user;
  for (const char* library :
       {"torch/nn/modules/module.py", "transformers/models/llama/modeling_llama.py", "contextlib.py", "dataclasses.py",
        "importlib/__init__.py", "/usr/lib/python3.12/site-packages/foo/bar.py",
        "/opt/conda/lib/python3.11/threading.py", "/src/pytorch/torch/nn/functional.py", "<string>",
        "<frozen importlib._bootstrap>", "huggingface_hub/utils/_validators.py"})
    EXPECT_FALSE(is_user_python_file(library)) << library;
  EXPECT_EQ(python_file_base("/home/me/work/serve/engine.py"), "engine.py");
  EXPECT_EQ(python_file_base("model.py"), "model.py");
}

}  // namespace
}  // namespace cuprobe
