// record_shapes arguments of operator events: read into Profile::op_inputs,
// tolerant of shapes the reader does not understand.
#include <gtest/gtest.h>

#include "import/kineto_json/kineto_importer.h"

namespace cuprobe {
namespace {

Profile import_text(const std::string& text) {
  auto source = memory_byte_source(text, SIZE_MAX);
  return import_kineto_json(*source, "t.json");
}

std::string op_event(const std::string& args) {
  return R"J({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1,
      "dur": 2, "args": )J" +
         args + "}]}";
}

TEST(OpShapes, DimsTypesStridesAndConcreteInputsOfEachArgument) {
  Profile p = import_text(op_event(
      R"J({"External id": 5, "Input Dims": [[384, 1536], [1536, 512], []], "Input type": ["c10::BFloat16",
          "c10::BFloat16", "Scalar"], "Input Strides": [[1536, 1], [1, 1536], []], "Concrete Inputs": ["", "", "1"]})J"));
  ASSERT_EQ(p.cpu.size(), 1u);
  ASSERT_GE(p.cpu[0].inputs, 0);
  const OpInputs& in = p.op_inputs.at(static_cast<std::size_t>(p.cpu[0].inputs));
  ASSERT_EQ(in.args.size(), 3u);
  EXPECT_EQ(in.args[0].dims, (std::vector<std::int64_t>{384, 1536}));
  EXPECT_EQ(in.args[1].strides, (std::vector<std::int64_t>{1, 1536}));
  EXPECT_EQ(in.args[1].type, "c10::BFloat16");
  EXPECT_EQ(in.args[2].type, "Scalar");
  EXPECT_EQ(in.args[2].concrete, "1");
  EXPECT_EQ(p.stats.count(ImportStat::kOpShapeMalformed), 0);
}

TEST(OpShapes, ATensorListKeepsEachTensorsSizes) {
  Profile p = import_text(
      op_event(R"J({"Input Dims": [[496000, 576], [[4096], []]], "Input type": ["c10::BFloat16", "TensorList"]})J"));
  const OpInputs& in = p.op_inputs.at(0);
  ASSERT_EQ(in.args.size(), 2u);
  EXPECT_TRUE(in.args[1].dims.empty());
  ASSERT_EQ(in.args[1].list_dims.size(), 2u);
  EXPECT_EQ(in.args[1].list_dims[0], (std::vector<std::int64_t>{4096}));
}

TEST(OpShapes, AMalformedShapeIsCountedAndTheEventKept) {
  Profile p = import_text(op_event(R"J({"Input Dims": "oops", "Input type": [1, "float"],
      "Concrete Inputs": [["x"]], "Input Strides": [[1, "a"], [true]]})J"));
  ASSERT_EQ(p.cpu.size(), 1u);
  EXPECT_EQ(p.stats.count(ImportStat::kOpShapeMalformed), 4);
  EXPECT_NE(p.stats.get(ImportStat::kOpShapeMalformed).example.find("aten::mm (args.Input Dims)"), std::string::npos);
  EXPECT_EQ(p.stats.problems(), 0);  // info only: --strict does not refuse the file
  const OpInputs& in = p.op_inputs.at(0);
  ASSERT_EQ(in.args.size(), 2u);
  EXPECT_EQ(in.args[1].type, "float");  // what could be read was kept
}

TEST(OpShapes, OperatorsWithoutShapesAndOtherEventsCarryNone) {
  Profile p = import_text(R"J({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {}},
      {"ph": "X", "cat": "user_annotation", "name": "step", "pid": 1, "tid": 1, "ts": 1, "dur": 2,
       "args": {"Input Dims": [[1]]}}]})J");
  ASSERT_EQ(p.cpu.size(), 2u);
  EXPECT_EQ(p.cpu[0].inputs, -1);
  EXPECT_EQ(p.cpu[1].inputs, -1);
  EXPECT_TRUE(p.op_inputs.empty());
}

}  // namespace
}  // namespace cuprobe
