#!/usr/bin/env bash
# The whole benchmark, from a clean checkout: builds as shipped, generates inputs, measures every
# row against the peers run in the same run, and writes the results into Benchmarks/README.md
# (between the `bench:begin` and `bench:end` markers) with the machine and commit they came from,
# so that the README's figures are one run's and cannot drift from the code.
# Usage: bash Benchmarks/run.sh [MB] [BUNDLES] [RUNS]   (defaults 200 2000 5)
#        BENCH_NO_README=1 prints the results without writing the README (smoke runs).
set -euo pipefail
cd "$(dirname "$0")/.."
# Measured as shipped: installed by Scripts/install.sh (static, stripped); the in-process bench is
# built the same way in the same build folder.
bash Scripts/install.sh "$PWD/.build-bench/install" >/dev/null
export BENCH_CLI="$PWD/.build-bench/install/bin/playback-forensics"
BUILD=(-c release --static-swift-stdlib -Xswiftc -static-executable --build-path .build/static)
swift build "${BUILD[@]}" --product playback-forensics-bench >/dev/null
python3 -c "import m3u8" 2>/dev/null || pip install -q m3u8==6.0.0 || pip install -q m3u8
# Peers measured in the same run (whole process against whole process); a missing one is skipped.
python3 -c "import orjson" 2>/dev/null || pip install -q orjson || true
python3 -c "import simdjson" 2>/dev/null || pip install -q pysimdjson || true
python3 -c "import duckdb" 2>/dev/null || pip install -q duckdb || true
command -v lnav >/dev/null || apt-get install -y -q lnav >/dev/null 2>&1 || true
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null 2>&1 || true
command -v jq >/dev/null || apt-get install -y -q jq >/dev/null 2>&1 || true
command -v libdeflate-gunzip >/dev/null || apt-get install -y -q libdeflate-tools >/dev/null 2>&1 || true
mb=${1:-200}; bundles=${2:-2000}; runs=${3:-5}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
{
  echo "Run of $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Benchmarks || echo ' (with uncommitted changes)'),"
  echo "\`bash Benchmarks/run.sh $mb $bundles $runs\` on $(nproc) cores of $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"
  echo "$(free -g | awk '/Mem:/ {print $2}') GiB, Linux $(uname -r); ours is the installed static build (\`Scripts/install.sh\`)."
  echo
  echo "### Parsers, end to end, memory, start-up, triage"
  echo
  python3 Benchmarks/run.py "$mb" "$bundles" "$runs"
  echo
  echo "### CDN logs: a day of CloudFront logs against one bundle, with DuckDB (\`cdn_day.py\`, 0.25 GiB)"
  PF_BIN="$BENCH_CLI" python3 Benchmarks/cdn_day.py .build-bench/cdn 0.25 --runs 3
  echo
  echo "### Device console: \`log show --style ndjson\` against jq (\`console_capture.py\`)"
  PF_BIN="$BENCH_CLI" python3 Benchmarks/console_capture.py .build-bench/console 400000 --runs 3
} | tee "$results"
if [ -z "${BENCH_NO_README:-}" ]; then
  python3 - "$results" <<'PY'
import sys
readme = "Benchmarks/README.md"
text = open(readme).read()
begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
body = open(sys.argv[1]).read().strip()
if begin in text and end in text:
    head, rest = text.split(begin, 1)
    text = head + begin + "\n" + body + "\n" + end + rest.split(end, 1)[1]
else:
    text = text.rstrip() + "\n\n## Latest run (written by run.sh)\n\n" + begin + "\n" + body + "\n" + end + "\n"
open(readme, "w").write(text)
print("wrote", readme)
PY
fi
