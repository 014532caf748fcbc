// What kind of file an input is: the one decision every verb's inputs go
// through (a file given, the files of a directory given, a pipe). It looks at
// the name (an Nsight Systems report), the first bytes under any gzip or xz
// layer (Kineto or rocprofv3 JSON, SQLite), and an SQLite file's tables (which
// reader). Loading (import/load_profiles.h) dispatches on its answer only.
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

enum class TraceFormat {
  kKinetoJson,     // JSON: a top-level array, or an object with "traceEvents" in its first MiB
  kRocprofv3Json,  // JSON: an object whose first key is "rocprofiler-sdk-tool" (rocprofv3 --output-format json)
  kRunFile,        // SQLite with a 'metadata' table (a cuprobe run file)
  kNsysExport,     // SQLite with 'StringIds' (an Nsight Systems export)
  kNsysReport,     // .nsys-rep / .qdrep, by name (read through `nsys export`)
  kSqliteStream,   // SQLite bytes SQLite cannot open in place (under gzip or xz, or from a pipe): copied to a
                   // private file, then sniffed again
  kDamagedSqlite,  // the SQLite header, but its tables cannot be read
  kOtherSqlite,    // an SQLite database of something else
  kOtherJson,      // JSON without "traceEvents" in its first MiB (a bench result, a config)
  kEmpty,          // no bytes (or only whitespace)
  kUnknown,        // neither JSON nor SQLite
};

struct TraceSniff {
  TraceFormat format = TraceFormat::kUnknown;
  std::string encoding = "plain";  // as stored: plain, gzip or xz
  std::string detail;              // kDamagedSqlite: SQLite's reason
  // A directory keeps it: a trace, or bytes that loading reports as damaged.
  bool kept_in_directory(std::string_view name) const;
  // Why a directory skips it ("" when kept).
  std::string why_skipped(std::string_view name) const;
};

// A regular file (or a link to one). Reads at most its first `head_bytes`
// (decompressed; "traceEvents" is looked for there); an SQLite file is opened
// read-only to see its tables. Throws InputError when the file cannot be
// opened or its compressed head is corrupt.
TraceSniff sniff_trace_format(const std::string& path, std::size_t head_bytes = std::size_t{1} << 20);

// How many first bytes decide every format but "traceEvents" further in (which
// the Kineto reader finds itself): what loading reads before it picks a reader.
inline constexpr std::size_t kFormatHeadBytes = 256;

// The JSON / SQLite / empty decision from the first bytes of a stream, already
// decompressed (a pipe is read once: its head decides).
TraceFormat sniff_head(std::string_view head);

// Which reader an SQLite file is for, by its tables: kRunFile, kNsysExport,
// kOtherSqlite, or kDamagedSqlite with SQLite's reason in `detail`.
TraceSniff sniff_sqlite(const std::string& path);

// Names that say "trace" (.json, .json.gz, .json.xz, .cuprobe, .cuprobe.gz, .cuprobe.xz, .sqlite): a directory
// keeps such a file even when its bytes are no trace, so that loading it says what is wrong.
bool trace_like_name(std::string_view name);

}  // namespace cuprobe
