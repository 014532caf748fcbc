#!/usr/bin/env python3
"""zoo_passing.py JOBS_JSON: the programs (comma-separated) all of whose jobs exited 0."""
import json
import sys

jobs = json.load(open(sys.argv[1]))
bad = {j["prog"] for j in jobs if j["skipped"] or j["rc"] != 0}
print(",".join(sorted({j["prog"] for j in jobs} - bad)))
