#include "report/html/samples_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/error.h"
#include "report/html/step_timeline.h"
#include "report/json_field.h"

namespace cuprobe {
namespace {

using json = nlohmann::ordered_json;

struct Point {
  std::int64_t at_ns;
  double value;
};
using Series = std::map<std::pair<int, std::string>, std::vector<Point>>;  // (gpu, metric) -> points

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

template <typename T>
T number(const std::string& s, const std::string& file, long line_no, const char* what) {
  try {
    std::size_t used = 0;
    T v;
    if constexpr (std::is_same_v<T, double>) {
      v = std::stod(s, &used);
    } else {
      v = static_cast<T>(std::stoll(s, &used));
    }
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError(file, "line " + std::to_string(line_no) + ": " + what + " '" + s + "' is not a number");
}

void read_csv(const std::string& file, const std::string& text, Series& out) {
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> header;
  for (long line_no = 1; std::getline(lines, line); ++line_no) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    auto cells = split_csv_line(line);
    if (header.empty()) {
      header = cells;
      if (header.size() < 4 || header[0] != "gpu" || header[1] != "start_ns" || header[2] != "end_ns") {
        throw InputError(file, "line 1: expected the header gpu,start_ns,end_ns,<metric>... of `cuprobe sample`");
      }
      continue;
    }
    if (cells.size() != header.size()) {
      throw InputError(file, "line " + std::to_string(line_no) + ": " + std::to_string(cells.size()) +
                                 " fields, the header has " + std::to_string(header.size()));
    }
    int gpu = number<int>(cells[0], file, line_no, "gpu");
    auto start = number<std::int64_t>(cells[1], file, line_no, "start_ns");
    auto end = number<std::int64_t>(cells[2], file, line_no, "end_ns");
    for (std::size_t m = 3; m < cells.size(); ++m) {
      if (cells[m].empty()) continue;  // not read: no point, never 0
      out[{gpu, header[m]}].push_back({start / 2 + end / 2, number<double>(cells[m], file, line_no, "value")});
    }
  }
  if (header.empty()) throw InputError(file, "empty: no header line");
}

void read_jsonl(const std::string& file, const std::string& text, Series& out) {
  std::istringstream lines(text);
  std::string line;
  for (long line_no = 1; std::getline(lines, line); ++line_no) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json r = json::parse(line, nullptr, false);
    if (r.is_discarded() || !r.is_object() || !r.contains("gpu") || !r["gpu"].is_number_integer() ||
        !r.contains("start_ns") || !r["start_ns"].is_number() || !r.contains("end_ns") || !r["end_ns"].is_number()) {
      throw InputError(file, "line " + std::to_string(line_no) + ": not a sample line ({\"gpu\":..,\"start_ns\":..})");
    }
    // Through json_field: a time of 1e300 or a gpu beyond int is no undefined cast (issue 39).
    auto at = json_get(r, "start_ns", std::int64_t{0}) / 2 + json_get(r, "end_ns", std::int64_t{0}) / 2;
    int gpu = json_get(r, "gpu", -1);
    for (const auto& [key, value] : r.items()) {
      if (key == "gpu" || key == "start_ns" || key == "end_ns" || !value.is_number()) continue;
      out[{gpu, key}].push_back({at, json_as(value, 0.0)});
    }
  }
}

}  // namespace

nlohmann::ordered_json samples_view(const std::string& file, const std::string& text) {
  Series series;
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    read_jsonl(file, text, series);
  } else {
    read_csv(file, text, series);
  }
  if (series.empty()) throw InputError(file, "no samples with a value");
  std::int64_t t0 = INT64_MAX, t1 = INT64_MIN;
  for (const auto& [key, points] : series) {
    for (const auto& p : points) {
      t0 = std::min(t0, p.at_ns);
      t1 = std::max(t1, p.at_ns);
    }
  }
  double span_s = std::max(static_cast<double>(t1 - t0) / 1e9, 1e-9);
  json list = json::array();
  std::string note;
  for (const auto& [key, points] : series) {
    json t = json::array(), v = json::array();
    if (points.size() <= kSamplesMaxPoints) {
      for (const auto& p : points) {
        t.push_back(round4(static_cast<double>(p.at_ns - t0) / 1e9));
        v.push_back(round4(p.value));
      }
    } else {
      note = "samples averaged into " + std::to_string(kSamplesMaxPoints) + " time bins per series";
      std::vector<double> sum(kSamplesMaxPoints, 0);
      std::vector<int> n(kSamplesMaxPoints, 0);
      for (const auto& p : points) {
        auto b = static_cast<std::size_t>(static_cast<double>(p.at_ns - t0) / 1e9 / span_s * (kSamplesMaxPoints - 1));
        sum[b] += p.value;
        ++n[b];
      }
      for (std::size_t b = 0; b < kSamplesMaxPoints; ++b) {
        if (!n[b]) continue;
        t.push_back(round4(span_s * static_cast<double>(b) / (kSamplesMaxPoints - 1)));
        v.push_back(round4(sum[b] / n[b]));
      }
    }
    list.push_back({{"gpu", key.first}, {"metric", key.second}, {"t_s", std::move(t)}, {"values", std::move(v)}});
  }
  json j;
  j["file"] = file;
  j["series"] = std::move(list);
  if (!note.empty()) j["downsampled"] = note;
  return j;
}

}  // namespace cuprobe
