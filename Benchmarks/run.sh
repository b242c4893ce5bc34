#!/usr/bin/env bash
# The whole benchmark, from a clean checkout: builds release, generates inputs, measures, prints
# the table with ratios against baselines measured in the same run.
# Usage: bash Benchmarks/run.sh [MB] [BUNDLES] [RUNS]   (defaults 200 2000 5)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playback-forensics >/dev/null
swift build -c release --product playback-forensics-bench >/dev/null
python3 -c "import m3u8" 2>/dev/null || pip install -q m3u8==6.0.0 || pip install -q m3u8
exec python3 Benchmarks/run.py "${1:-200}" "${2:-2000}" "${3:-5}"
