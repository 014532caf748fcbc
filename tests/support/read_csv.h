// A small RFC 4180 reader for the CSV files cuprobe writes: quoted fields may hold commas,
// quotes and line breaks. Each row a map from the header's names to its cells; a row whose
// length is not the header's fails the calling test.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace cuprobe::test {

std::vector<std::map<std::string, std::string>> read_csv(const std::string& path);

}  // namespace cuprobe::test
