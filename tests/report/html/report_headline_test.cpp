// The page's headline (report/html/report_headline): the top finding is one whose what-if saves something.
#include "report/html/report_headline.h"

#include <gtest/gtest.h>

namespace cuprobe {
namespace {

Finding finding(const std::string& id, double now_ms, double gain_ms) {
  Finding f;
  f.id = id;
  f.severity = "low";
  f.title = id;
  f.what_if.step_ms_now = now_ms;
  f.what_if.step_ms_after = now_ms - gain_ms;
  f.gain = gain_ms;
  return f;
}

// issue 35 item 8: a finding whose what-if saves 0% (graphs recorded whole, time claimed above) is never shown as
// the top finding; the first one that saves something is, and without one there is none (and the page says why).
TEST(ReportHeadline, TopFindingSavesSomething) {
  AnalyzeReport r;
  r.ranks.resize(1);
  r.findings = {finding("graphs_recorded_whole", 10, 0), finding("copy_cast_dominant", 10, 4)};
  auto h = report_headline(&r, nullptr);
  ASSERT_TRUE(h["top_finding"].is_object());
  EXPECT_EQ(h["top_finding"]["id"], "copy_cast_dominant");
  EXPECT_FALSE(h["findings_without_saving"].get<bool>());
  r.findings = {finding("graphs_recorded_whole", 10, 0), finding("gpu_idle", 10, 0.001)};  // -0.01%: "-0.0%"
  h = report_headline(&r, nullptr);
  EXPECT_TRUE(h["top_finding"].is_null());
  EXPECT_TRUE(h["findings_without_saving"].get<bool>());
  r.findings.clear();
  h = report_headline(&r, nullptr);
  EXPECT_TRUE(h["top_finding"].is_null());
  EXPECT_FALSE(h["findings_without_saving"].get<bool>());
}

}  // namespace
}  // namespace cuprobe
