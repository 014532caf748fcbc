// Means of a row of columns over the exporter's window: either since the last
// take() (the window since the last scrape), or over the last `window_ns`
// (`--window`). Memory stays bounded however long nobody scrapes: running sums
// in the first form, rows no older than the window in the second.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace cuprobe {

class MeanWindow {
 public:
  // window_ns 0: means since the last take().
  MeanWindow(std::size_t columns, std::int64_t window_ns);
  void add(std::int64_t t_ns, const std::vector<double>& values);  // NaN values are not counted
  // Means per column (NaN where nothing was read); when no row came since the last take(),
  // the previous means again, so a scrape between two samples sees no gap.
  std::vector<double> take(std::int64_t now_ns);
  std::int64_t rows_taken() const { return rows_taken_; }  // rows behind the last take()'s means
  void clear();                                            // forget everything (the source went away)
  std::size_t held_rows() const { return rows_.size(); }

 private:
  struct Row {
    std::int64_t t_ns;
    std::vector<double> values;
  };
  std::size_t columns_;
  std::int64_t window_ns_;
  std::vector<double> sums_;
  std::vector<std::int64_t> counts_;
  std::int64_t pending_rows_ = 0, rows_taken_ = 0;
  std::deque<Row> rows_;
  std::vector<double> last_;
};

}  // namespace cuprobe
