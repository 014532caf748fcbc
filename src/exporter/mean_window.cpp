#include "exporter/mean_window.h"

#include <cmath>

namespace cuprobe {

MeanWindow::MeanWindow(std::size_t columns, std::int64_t window_ns)
    : columns_(columns), window_ns_(window_ns), sums_(columns, 0), counts_(columns, 0), last_(columns, NAN) {}

void MeanWindow::add(std::int64_t t_ns, const std::vector<double>& values) {
  if (window_ns_ > 0) {
    rows_.push_back({t_ns, values});
    rows_.back().values.resize(columns_, NAN);
    while (!rows_.empty() && rows_.front().t_ns < t_ns - window_ns_) rows_.pop_front();
    return;
  }
  for (std::size_t i = 0; i < columns_ && i < values.size(); ++i) {
    if (std::isnan(values[i])) continue;
    sums_[i] += values[i];
    ++counts_[i];
  }
  ++pending_rows_;
}

std::vector<double> MeanWindow::take(std::int64_t now_ns) {
  if (window_ns_ > 0) {
    while (!rows_.empty() && rows_.front().t_ns < now_ns - window_ns_) rows_.pop_front();
    if (rows_.empty()) {
      rows_taken_ = 0;
      return last_;
    }
    std::vector<double> sums(columns_, 0);
    std::vector<std::int64_t> counts(columns_, 0);
    for (const auto& r : rows_) {
      for (std::size_t i = 0; i < columns_; ++i) {
        if (std::isnan(r.values[i])) continue;
        sums[i] += r.values[i];
        ++counts[i];
      }
    }
    for (std::size_t i = 0; i < columns_; ++i) last_[i] = counts[i] ? sums[i] / counts[i] : NAN;
    rows_taken_ = static_cast<std::int64_t>(rows_.size());
    return last_;
  }
  if (pending_rows_ > 0) {
    for (std::size_t i = 0; i < columns_; ++i) last_[i] = counts_[i] ? sums_[i] / counts_[i] : NAN;
    rows_taken_ = pending_rows_;
  }
  sums_.assign(columns_, 0);
  counts_.assign(columns_, 0);
  pending_rows_ = 0;
  return last_;
}

void MeanWindow::clear() {
  sums_.assign(columns_, 0);
  counts_.assign(columns_, 0);
  pending_rows_ = rows_taken_ = 0;
  rows_.clear();
  last_.assign(columns_, NAN);
}

}  // namespace cuprobe
