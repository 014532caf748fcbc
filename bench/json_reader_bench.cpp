// The hand-written JSON cursor beside simdjson (Debian's libsimdjson-dev, On-Demand API) on one
// Kineto trace, side by side in one run: both pull the same fields the importer needs from every
// element of traceEvents (ph, cat, name copied, ts and dur as doubles, pid, tid, and the GPU
// arguments correlation, External id, stream, device, bytes) and skip the rest, so the figure is
// the reader's cost, not the model's. The trace is decompressed into memory first (the cursor
// reads it from memory too). simdjson needs the whole document in memory, padded; the cursor holds
// a 4 MiB window: the memory each needs is printed beside the time. Each reader runs `rounds`
// times, interleaved; the median is printed.
//   json_reader_bench TRACE.json[.gz|.xz] [rounds]
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/percentile.h"
#include "import/byte_source.h"
#include "import/kineto_json/json_cursor.h"

#ifdef CUPROBE_HAVE_SIMDJSON
#include <simdjson.h>
#endif

namespace {

// What both readers extract per event; the checksum keeps the work from being optimised away
// and shows that both read the same values.
struct Tally {
  std::uint64_t events = 0;
  double ts_sum = 0;
  double dur_sum = 0;
  std::int64_t id_sum = 0;
  std::uint64_t name_bytes = 0;
  bool operator==(const Tally&) const = default;
};

double to_double(std::string_view text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

std::int64_t to_int(std::string_view text) {
  std::int64_t v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

bool is_gpu_arg(std::string_view key) {
  return key == "correlation" || key == "External id" || key == "stream" || key == "device" || key == "bytes";
}

// The cursor's side, as the importer walks it.
class CursorReader {
 public:
  CursorReader(const std::string& text) : source_(cuprobe::memory_byte_source(text)), cursor_(*source_, "trace") {}

  Tally run() {
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      if (key != "traceEvents") {
        cursor_.skip_value();
        continue;
      }
      cursor_.expect('[');
      bool first_event = true;
      while (cursor_.next_element(first_event)) read_event();
    }
    return tally_;
  }

 private:
  void read_event() {
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      if (key == "ph" || key == "cat") {
        cursor_.string();
      } else if (key == "name") {
        name_.assign(cursor_.string());
        tally_.name_bytes += name_.size();
      } else if (key == "ts") {
        tally_.ts_sum += to_double(cursor_.number());
      } else if (key == "dur") {
        tally_.dur_sum += to_double(cursor_.number());
      } else if ((key == "pid" || key == "tid") && cursor_.peek() != '"') {
        tally_.id_sum += to_int(cursor_.number());
      } else if (key == "args" && cursor_.peek() == '{') {
        read_args();
      } else {
        cursor_.skip_value();
      }
    }
    ++tally_.events;
  }

  void read_args() {
    cursor_.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor_.next_key(key, first)) {
      if (is_gpu_arg(key) && cursor_.peek() != '"') {
        tally_.id_sum += to_int(cursor_.number());
      } else {
        cursor_.skip_value();
      }
    }
  }

  std::unique_ptr<cuprobe::ByteSource> source_;
  cuprobe::JsonCursor cursor_;
  Tally tally_;
  std::string name_;
};

#ifdef CUPROBE_HAVE_SIMDJSON
namespace od = simdjson::ondemand;

std::int64_t raw_int(od::value value) {
  std::string_view raw = value.raw_json_token();
  return to_int(raw);
}

void read_args(od::object args, Tally& tally) {
  for (auto field : args) {
    std::string_view key = field.unescaped_key().value();
    od::value value = field.value();
    if (is_gpu_arg(key) && value.type().value() == od::json_type::number) tally.id_sum += raw_int(value);
  }
}

Tally simdjson_read(const simdjson::padded_string& text) {
  od::parser parser;
  od::document doc = parser.iterate(text);
  Tally tally;
  std::string name;
  for (auto element : doc["traceEvents"].get_array()) {
    od::object event = element.get_object();
    for (auto field : event) {
      std::string_view key = field.unescaped_key().value();
      od::value value = field.value();
      if (key == "ph" || key == "cat") {
        std::string_view ignored = value.get_string();
        (void)ignored;
      } else if (key == "name") {
        name.assign(std::string_view(value.get_string()));
        tally.name_bytes += name.size();
      } else if (key == "ts") {
        tally.ts_sum += to_double(value.raw_json_token());
      } else if (key == "dur") {
        tally.dur_sum += to_double(value.raw_json_token());
      } else if ((key == "pid" || key == "tid") && value.type().value() == od::json_type::number) {
        tally.id_sum += raw_int(value);
      } else if (key == "args" && value.type().value() == od::json_type::object) {
        read_args(value.get_object(), tally);
      }
    }
    ++tally.events;
  }
  return tally;
}
#endif

std::string read_whole(const std::string& path) {
  auto source = cuprobe::open_byte_source(path);
  std::string text;
  std::vector<char> block(1 << 20);
  while (std::size_t n = source->read(block.data(), block.size())) text.append(block.data(), n);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: json_reader_bench TRACE.json[.gz|.xz] [rounds]\n");
    return 2;
  }
  int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  try {
    std::string text = read_whole(argv[1]);
    double mib = static_cast<double>(text.size()) / (1 << 20);
    struct Side {
      std::string name;
      std::function<Tally()> run;
      std::string memory;
      std::vector<double> seconds;
      Tally tally;
    };
    std::vector<Side> sides;
    sides.push_back({"cuprobe JsonCursor", [&] { return CursorReader(text).run(); }, "4 MiB window", {}, {}});
#ifdef CUPROBE_HAVE_SIMDJSON
    simdjson::padded_string padded(text);
    char memory[64];
    std::snprintf(memory, sizeof memory, "%.0f MiB (whole document, padded)", mib);
    std::string simdjson_name = "simdjson " + std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." +
                                std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + " On-Demand (" +
                                simdjson::get_active_implementation()->name() + ")";
    sides.push_back({simdjson_name, [&] { return simdjson_read(padded); }, memory, {}, {}});
#endif
    for (int r = 0; r < rounds; ++r) {
      for (auto& side : sides) {
        auto start = std::chrono::steady_clock::now();
        side.tally = side.run();
        side.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
    }
    std::printf("%s: %.1f MiB of JSON, %d rounds each (interleaved), median\n", argv[1], mib, rounds);
    std::printf("%-48s %9s %9s %10s  %s\n", "reader", "seconds", "MiB/s", "events", "memory for the text");
    for (const auto& side : sides) {
      double s = cuprobe::percentile(side.seconds, 50);
      std::printf("%-48s %9.3f %9.0f %10llu  %s\n", side.name.c_str(), s, mib / s,
                  static_cast<unsigned long long>(side.tally.events), side.memory.c_str());
    }
    for (const auto& side : sides) {
      if (!(side.tally == sides.front().tally)) {
        std::fprintf(stderr, "json_reader_bench: %s read different values than %s\n", side.name.c_str(),
                     sides.front().name.c_str());
        return 1;
      }
    }
#ifndef CUPROBE_HAVE_SIMDJSON
    std::printf("(simdjson not built in: install libsimdjson-dev and reconfigure to compare)\n");
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "json_reader_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
