// record_shapes arguments of operator events: read into Profile::op_inputs,
// tolerant of shapes the reader does not understand.
#include <gtest/gtest.h>

#include "common/error.h"
#include "import/kineto_json/kineto_importer.h"
#include "import/kineto_json/kineto_text.h"

namespace cuprobe {
namespace {

std::string op_event(const std::string& args) {
  return R"J({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1,
      "dur": 2, "args": )J" +
         args + "}]}";
}

TEST(OpShapes, DimsTypesStridesAndConcreteInputsOfEachArgument) {
  Profile p = test::import_kineto_text(op_event(
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
  Profile p = test::import_kineto_text(
      op_event(R"J({"Input Dims": [[496000, 576], [[4096], []]], "Input type": ["c10::BFloat16", "TensorList"]})J"));
  const OpInputs& in = p.op_inputs.at(0);
  ASSERT_EQ(in.args.size(), 2u);
  EXPECT_TRUE(in.args[1].dims.empty());
  ASSERT_EQ(in.args[1].list_dims.size(), 2u);
  EXPECT_EQ(in.args[1].list_dims[0], (std::vector<std::int64_t>{4096}));
}

TEST(OpShapes, AMalformedShapeIsCountedAndTheEventKept) {
  Profile p = test::import_kineto_text(op_event(R"J({"Input Dims": "oops", "Input type": [1, "float"],
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
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {}},
      {"ph": "X", "cat": "user_annotation", "name": "step", "pid": 1, "tid": 1, "ts": 1, "dur": 2,
       "args": {"Input Dims": [[1]]}}]})J");
  ASSERT_EQ(p.cpu.size(), 2u);
  EXPECT_EQ(p.cpu[0].inputs, -1);
  EXPECT_EQ(p.cpu[1].inputs, -1);
  EXPECT_TRUE(p.op_inputs.empty());
}

std::string op_events(int n, const std::string& args) {
  std::string events;
  for (int i = 0; i < n; ++i) {
    events += std::string(i ? ", " : "") + R"J({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
        "ts": )J" +
              std::to_string(10 * i + 1) + R"J(, "dur": 2, "args": )J" + args + "}";
  }
  return R"J({"traceEvents": [)J" + events + "]}";
}

// Repeated argument text is parsed once (op_shapes.h): what it gives must not depend on that.
TEST(OpShapes, RepeatedArgumentsShareOneSet) {
  Profile p =
      test::import_kineto_text(op_events(3, R"J({"Input Dims": [[4, 8], []], "Input type": ["float", "Scalar"]})J"));
  ASSERT_EQ(p.cpu.size(), 3u);
  ASSERT_EQ(p.op_inputs.size(), 1u);
  for (const auto& r : p.cpu) EXPECT_EQ(r.inputs, 0);
  EXPECT_EQ(p.op_inputs[0].args[0].dims, (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(p.op_inputs[0].args[1].type, "Scalar");
}

TEST(OpShapes, RepeatedMalformedArgumentsAreCountedEachTime) {
  Profile p = test::import_kineto_text(op_events(3, R"J({"Input Dims": [[4, "x"]], "Input type": ["float"]})J"));
  EXPECT_EQ(p.stats.count(ImportStat::kOpShapeMalformed), 3);
  EXPECT_EQ(p.stats.get(ImportStat::kOpShapeMalformed).example, "aten::mm (args.Input Dims)");
  ASSERT_EQ(p.op_inputs.size(), 1u);
  EXPECT_EQ(p.op_inputs[0].args[0].type, "float");
}

TEST(OpShapes, ArgumentsInTwoArgsObjectsOfOneEventAddUp) {
  Profile p =
      test::import_kineto_text(op_events(2, R"J({"Input Dims": [[2], [3]]}, "args": {"Input type": ["float"]})J"));
  ASSERT_EQ(p.op_inputs.size(), 1u);
  const auto& args = p.op_inputs[0].args;
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[0].dims, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(args[0].type, "float");
  EXPECT_EQ(args[1].dims, (std::vector<std::int64_t>{3}));
}

TEST(OpShapes, BeginEndOperatorsKeepTheirArguments) {
  const std::string args = R"J({"Input Dims": [[16]]})J";
  Profile p = test::import_kineto_text(R"J({"traceEvents": [
      {"ph": "B", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1, "args": )J" +
                                       args + R"J(},
      {"ph": "B", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 2, "args": )J" +
                                       args + R"J(},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 3}, {"ph": "E", "pid": 1, "tid": 1, "ts": 4}]})J");
  ASSERT_EQ(p.cpu.size(), 2u);
  ASSERT_EQ(p.op_inputs.size(), 1u);
  EXPECT_EQ(p.cpu[0].inputs, 0);
  EXPECT_EQ(p.cpu[1].inputs, 0);
  EXPECT_EQ(p.op_inputs[0].args[0].dims, (std::vector<std::int64_t>{16}));
}

TEST(OpShapes, BadJsonInArgumentsFailsWhereItIs) {
  // A literal cut short just before the array ends: what follows the value decides the message.
  std::string text = op_event(R"J({"Input Dims": [tr]})J");
  EXPECT_EQ(test::kineto_import_error(text),
            "t.json: byte " + std::to_string(text.find("tr]")) + ": invalid JSON: bad literal");
  text = op_event(R"J({"Input Dims": [[1, 2} ]})J");
  EXPECT_EQ(test::kineto_import_error(text),
            "t.json: byte " + std::to_string(text.find("} ]")) + ": invalid JSON: expected ',', found '}'");
}

TEST(OpShapes, ADeeplyNestedArgumentIsCountedNotRejected) {
  // Too deep to skip whole, not too deep for the reader (which skips an element from its own depth).
  std::string deep = std::string(512, '[') + std::string(512, ']');
  Profile p = test::import_kineto_text(op_events(2, R"J({"Input type": ["float"], "Input Dims": [[)J" + deep + "]]}"));
  ASSERT_EQ(p.cpu.size(), 2u);
  EXPECT_EQ(p.stats.count(ImportStat::kOpShapeMalformed), 2);
  ASSERT_EQ(p.op_inputs.size(), 1u);
  EXPECT_EQ(p.op_inputs[0].args[0].type, "float");
}

}  // namespace
}  // namespace cuprobe
