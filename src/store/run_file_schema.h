// The run file's SQLite schema (docs/run-file.md describes every column).
// Versioned by metadata 'format_version'; columns and tables are only added.
#pragma once

namespace cuprobe {

inline constexpr const char* kRunFileFormat = "cuprobe-run";
inline constexpr int kRunFileFormatVersion = 1;

// metadata 'status' values.
inline constexpr const char* kRunStatusRecording = "recording";  // still being written, or cuprobe died
inline constexpr const char* kRunStatusComplete = "complete";
inline constexpr const char* kRunStatusInterrupted = "interrupted";  // SIGINT/SIGTERM to cuprobe

inline constexpr const char* kRunFileSchema = R"sql(
CREATE TABLE metadata(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE processes(pid INTEGER PRIMARY KEY, ppid INTEGER, command TEXT,
  connected_ns INTEGER, ended_ns INTEGER, end_reason TEXT, exit_code INTEGER, cupti_version INTEGER,
  rank INTEGER, world_size INTEGER);
CREATE TABLE devices(id INTEGER PRIMARY KEY, name TEXT, sm_count INTEGER, compute_major INTEGER,
  compute_minor INTEGER, memory_bytes INTEGER, uuid TEXT);
CREATE TABLE names(id INTEGER PRIMARY KEY, name TEXT NOT NULL, mangled TEXT);
CREATE TABLE kernels(pid INTEGER, device INTEGER, stream INTEGER, start_ns INTEGER, end_ns INTEGER,
  name_id INTEGER, grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, block_x INTEGER, block_y INTEGER,
  block_z INTEGER, registers INTEGER, static_shared INTEGER, dynamic_shared INTEGER,
  correlation INTEGER, graph_id INTEGER);
CREATE TABLE memcpy(pid INTEGER, device INTEGER, stream INTEGER, start_ns INTEGER, end_ns INTEGER,
  kind TEXT, bytes INTEGER, correlation INTEGER, graph_id INTEGER);
CREATE TABLE memset(pid INTEGER, device INTEGER, stream INTEGER, start_ns INTEGER, end_ns INTEGER,
  bytes INTEGER, correlation INTEGER, graph_id INTEGER);
CREATE TABLE graph_launches(pid INTEGER, device INTEGER, stream INTEGER, start_ns INTEGER, end_ns INTEGER,
  graph_id INTEGER, correlation INTEGER);
CREATE TABLE ranges(pid INTEGER, tid INTEGER, start_ns INTEGER, end_ns INTEGER, name_id INTEGER,
  kind TEXT, correlation INTEGER);
CREATE TABLE metrics(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE samples(device INTEGER, start_ns INTEGER, end_ns INTEGER, metric_id INTEGER, value REAL);
CREATE TABLE losses(source TEXT, pid INTEGER, reason TEXT, count INTEGER,
  PRIMARY KEY(source, pid, reason));
CREATE TABLE notices(time_ns INTEGER, pid INTEGER, source TEXT, message TEXT);
CREATE TABLE captures(time_ns INTEGER, pid INTEGER, state TEXT, reason TEXT);
CREATE VIEW kernels_named AS
  SELECT k.*, n.name AS name FROM kernels k JOIN names n ON n.id = k.name_id;
CREATE VIEW kernel_summary AS
  SELECT n.name AS name, count(*) AS calls, sum(k.end_ns - k.start_ns) AS total_ns,
         avg(k.end_ns - k.start_ns) AS avg_ns
  FROM kernels k JOIN names n ON n.id = k.name_id GROUP BY k.name_id ORDER BY total_ns DESC;
CREATE VIEW samples_named AS
  SELECT s.device, s.start_ns, s.end_ns, m.name AS metric, s.value
  FROM samples s JOIN metrics m ON m.id = s.metric_id;
)sql";

}  // namespace cuprobe
