#!/usr/bin/env bash
# Runs every libFuzzer target for a given time (seconds each, default 60), seeded from
# ../shared/corpus and SampleLogs/. Crashes land in Fuzz/crashes/TARGET/.
# Usage: Scripts/fuzz.sh [SECONDS] [TARGET…]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=${*:-"playlist har metric-events access-log cache-log bundle"}
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --product playback-forensics-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library -Xswiftc -use-ld=lld >/dev/null
bin="$scratch/release/playback-forensics-fuzz"
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
i=0
while IFS= read -r f; do
  i=$((i + 1)); cp "$f" "$seeds/seed-$i"
done < <(find ../shared/corpus SampleLogs -type f ! -name '*.md' 2>/dev/null | sort)
for t in $targets; do
  mkdir -p "Fuzz/crashes/$t" "$scratch/corpus/$t"
  echo "== $t ($seconds s)"
  PF_FUZZ_TARGET=$t "$bin" "$scratch/corpus/$t" "$seeds" -max_total_time="$seconds" -max_len=262144 \
    -rss_limit_mb=4096 -timeout=20 -artifact_prefix="Fuzz/crashes/$t/" -print_final_stats=1 2>&1 \
    | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY|Done " || true
done
