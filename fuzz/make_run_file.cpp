// Writes the sample run file (support/sample_run_file.h) to the path given:
// scripts/fuzz.sh seeds the run-file targets' corpora with it.
#include <cstdio>
#include <exception>

#include "support/sample_run_file.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_run_file OUTPUT\n");
    return 2;
  }
  try {
    cuprobe::fuzz::write_sample_run_file(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_make_run_file: %s\n", e.what());
    return 1;
  }
  return 0;
}
