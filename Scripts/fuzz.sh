#!/usr/bin/env bash
# Runs every libFuzzer target (AddressSanitizer) until it has executed RUNS inputs or SECONDS have
# passed, whichever comes first, seeded from ../shared/corpus and SampleLogs/. Crashes land in
# Fuzz/crashes/TARGET/; once fixed, move each to Fuzz/regressions/TARGET/, which `swift test`
# replays and which seeds the next runs. The corpus each target grows is kept in
# .build-fuzz/corpus/TARGET.
#
# Usage: Scripts/fuzz.sh [SECONDS] [TARGET…]      (default 1800 s; every target: one per format of
# FormatRegistry, named by the format's identifier, `bundle`, `configuration` and `triage-index`;
# `PF_FUZZ_TARGET=list` lists them; Fuzz/seeds holds their seeds)
# Environment: RUNS (default 10000000), MAX_LEN (default 16384 bytes; the bundle and triage-index targets 262144),
# DICT (default Fuzz/bundle.dict, given to every target).
#
# Seeds: ../shared/corpus, SampleLogs/, Fuzz/regressions/ and the structure-aware inputs of
# Scripts/fuzz_inputs.py (tar with octal, base-256 and negative sizes; zips with overlapping,
# nested and corrupt members; stacked and cut gzip; HAR with open ranges and gzip bodies; logs
# with Int64 limits), so that mutations start from archives whose structure is already right.
#
# Why MAX_LEN is 16 KiB: the seeds include whole playlists and dumps of hundreds of KiB; letting
# every mutation grow that large made each execution parse 200 KiB, about 1,900 exec/s on the
# access-log target against 8,500 exec/s at 16 KiB, which also reached more coverage in the same
# time (seeds are cut to MAX_LEN; every parser state fits in a few KiB of input).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
shift || true
runs=${RUNS:-10000000}
max_len=${MAX_LEN:-16384}
bundle_max_len=${BUNDLE_MAX_LEN:-262144}
dict=${DICT:-Fuzz/bundle.dict}
scratch=.build-fuzz
swift build -c release --scratch-path "$scratch" --product playback-forensics-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library -Xswiftc -use-ld=lld >/dev/null
# Run a copy named after the commit, so that rebuilding while a fuzzer runs cannot disturb it
# and every result says which code it exercised.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- Sources 2>/dev/null || commit="$commit-dirty"
bin="$scratch/playback-forensics-fuzz-$commit"
# Two runs may share it (fuzz.sh 1800 a b & fuzz.sh 1800 c d &): replace by rename, never in place.
if ! cmp -s "$scratch/release/playback-forensics-fuzz" "$bin"; then
  cp "$scratch/release/playback-forensics-fuzz" "$bin.$$" && mv -f "$bin.$$" "$bin"
fi
targets=${*:-$(PF_FUZZ_TARGET=list "$bin")}
# Leaks inside libraries (documented in the file) are not ours to fix; anything else still fails.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
i=0
while IFS= read -r f; do
  i=$((i + 1)); cp "$f" "$seeds/seed-$i"
done < <(find ../shared/corpus SampleLogs Fuzz/regressions Fuzz/seeds -type f ! -name '*.md' 2>/dev/null | sort)
python3 Scripts/fuzz_inputs.py seeds "$seeds/structured" >/dev/null
mv "$seeds"/structured/* "$seeds"/ && rmdir "$seeds/structured"
for t in $targets; do
  mkdir -p "Fuzz/crashes/$t" "$scratch/corpus/$t"
  len=$max_len
  if [ "$t" = bundle ] || [ "$t" = triage-index ]; then len=$bundle_max_len; fi
  echo "== $t (at most $seconds s or $runs runs, max_len $len, dict $dict) at $commit"
  start=$(date +%s)
  PF_FUZZ_TARGET=$t "$bin" "$scratch/corpus/$t" "$seeds" -max_total_time="$seconds" -runs="$runs" \
    -max_len="$len" -dict="$dict" -rss_limit_mb=4096 -timeout=20 -artifact_prefix="Fuzz/crashes/$t/" -print_final_stats=1 2>&1 \
    | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY|Done |DONE" || true
  # libFuzzer also writes slow-unit-* (an input over 10 s): a finding, not a crash.
  echo "   elapsed $(( $(date +%s) - start )) s; crashes: $(find "Fuzz/crashes/$t" -type f ! -name 'slow-unit-*' | wc -l);" \
    "slow units: $(find "Fuzz/crashes/$t" -type f -name 'slow-unit-*' | wc -l)"
done
