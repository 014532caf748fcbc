// A table's columns written once, read by its CSV, JSON and text writers: each
// column's name (the JSON key, and the CSV header unless it has its own), its
// value in a row, and, for the columns the text table shows, the text header
// and the cell as text. A writer walks the list; no writer spells a name.
// A column can be in some forms only (`in`); where the CSV keeps a column in
// another place than the JSON (the older files' order), the list holds the one
// column twice, once for each form (only(); the text form goes with one of the
// two). Where the text table shows its columns in another order than the
// list's, each of them says its place (text_at).
#pragma once

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "report/csv_table.h"

namespace cuprobe {

// A value: an integer, a number, a text, or none (empty in CSV, null in JSON).
using TableCell = std::variant<std::monostate, std::int64_t, double, std::string>;

// The forms a column is written in (the text table: the columns with a text header, in the text form).
enum TableForms : unsigned char {
  kCsvForm = 1,
  kJsonForm = 2,
  kTextForm = 4,
  kCsvAndJson = kCsvForm | kJsonForm,
  kAllForms = kCsvAndJson | kTextForm
};

constexpr TableForms operator|(TableForms a, TableForms b) {
  return static_cast<TableForms>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

template <typename Row>
struct TableColumn {
  const char* name;                           // the JSON key (and the CSV header)
  TableCell (*value)(const Row&);             // the CSV field and the JSON value
  const char* text_header = nullptr;          // nullptr: not in the text table ('>': right-aligned)
  std::string (*text)(const Row&) = nullptr;  // the text table's cell
  const char* csv_name = nullptr;             // the CSV header where it differs from `name`
  // The JSON value where it is not `value`'s (a boolean, a list, an object); a discarded value leaves the key out.
  nlohmann::ordered_json (*json)(const Row&) = nullptr;
  TableForms in = kAllForms;
  // The column's place in the text table, where the list's order is not the text's: the text columns
  // go by text_at, those of equal text_at in list order (a table numbers all its text columns or none).
  unsigned char text_at = 0;
};

// The column in the forms `in` only.
template <typename Row>
constexpr TableColumn<Row> only(TableColumn<Row> column, TableForms in) {
  column.in = in;
  return column;
}

template <typename Row>
using TableColumns = std::span<const TableColumn<Row>>;

inline std::string csv_cell(const TableCell& c) {
  if (const auto* i = std::get_if<std::int64_t>(&c)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&c)) return csv_number(*d);
  if (const auto* s = std::get_if<std::string>(&c)) return *s;
  return {};
}

inline nlohmann::ordered_json json_cell(const TableCell& c) {
  if (const auto* i = std::get_if<std::int64_t>(&c)) return *i;
  if (const auto* d = std::get_if<double>(&c)) return *d;
  if (const auto* s = std::get_if<std::string>(&c)) return *s;
  return nullptr;
}

// The CSV header: `first` (e.g. "rank"), then every column's name.
template <typename Row>
std::vector<std::string> csv_header(TableColumns<Row> columns, std::vector<std::string> first) {
  for (const TableColumn<Row>& c : columns) {
    if (c.in & kCsvForm) first.push_back(c.csv_name ? c.csv_name : c.name);
  }
  return first;
}

// A CSV row: `first` (e.g. the rank), then every column's value.
template <typename Row>
std::vector<std::string> csv_row(TableColumns<Row> columns, const Row& row, std::vector<std::string> first) {
  for (const TableColumn<Row>& c : columns) {
    if (c.in & kCsvForm) first.push_back(csv_cell(c.value(row)));
  }
  return first;
}

// A JSON object: every column's name and value, in order.
template <typename Row>
nlohmann::ordered_json json_row(TableColumns<Row> columns, const Row& row) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const TableColumn<Row>& c : columns) {
    if (!(c.in & kJsonForm)) continue;
    nlohmann::ordered_json v = c.json ? c.json(row) : json_cell(c.value(row));
    if (!v.is_discarded()) j[c.name] = std::move(v);
  }
  return j;
}

// The text table's columns: those in the text form with a text header, but the one named `left_out`, by text_at.
template <typename Row>
std::vector<const TableColumn<Row>*> text_columns(TableColumns<Row> columns, const char* left_out = nullptr) {
  std::vector<const TableColumn<Row>*> out;
  for (const TableColumn<Row>& c : columns) {
    if (c.text_header && (c.in & kTextForm) && !(left_out && std::string_view(left_out) == c.name)) out.push_back(&c);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->text_at < b->text_at; });
  return out;
}

// The text table's headers and cells, in text_columns' order.
template <typename Row>
std::vector<std::string> text_headers(TableColumns<Row> columns, const char* left_out = nullptr) {
  std::vector<std::string> out;
  for (const TableColumn<Row>* c : text_columns(columns, left_out)) out.push_back(c->text_header);
  return out;
}

template <typename Row>
std::vector<std::string> text_cells(TableColumns<Row> columns, const Row& row, const char* left_out = nullptr) {
  std::vector<std::string> out;
  for (const TableColumn<Row>* c : text_columns(columns, left_out)) out.push_back(c->text(row));
  return out;
}

}  // namespace cuprobe
