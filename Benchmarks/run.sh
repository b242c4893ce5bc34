#!/usr/bin/env bash
# The whole benchmark, from a clean checkout: builds release, generates inputs, measures, prints
# the table with ratios against baselines measured in the same run.
# Usage: bash Benchmarks/run.sh [MB] [BUNDLES] [RUNS]   (defaults 200 2000 5)
set -euo pipefail
cd "$(dirname "$0")/.."
# Built as shipped: the Swift runtime and Foundation linked statically (a lean start: resolving
# the shared libraries' symbols was half of `--version`'s instructions), in its own build folder.
BUILD=(-c release --static-swift-stdlib -Xswiftc -static-executable --scratch-path .build-static)
swift build "${BUILD[@]}" --product playback-forensics >/dev/null
swift build "${BUILD[@]}" --product playback-forensics-bench >/dev/null
python3 -c "import m3u8" 2>/dev/null || pip install -q m3u8==6.0.0 || pip install -q m3u8
# Peers measured in the same run (whole process against whole process); a missing one is skipped.
python3 -c "import orjson" 2>/dev/null || pip install -q orjson || true
python3 -c "import simdjson" 2>/dev/null || pip install -q pysimdjson || true
command -v lnav >/dev/null || apt-get install -y -q lnav >/dev/null 2>&1 || true
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null 2>&1 || true
command -v jq >/dev/null || apt-get install -y -q jq >/dev/null 2>&1 || true
command -v libdeflate-gunzip >/dev/null || apt-get install -y -q libdeflate-tools >/dev/null 2>&1 || true
exec python3 Benchmarks/run.py "${1:-200}" "${2:-2000}" "${3:-5}"
