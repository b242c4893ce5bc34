#!/usr/bin/env bash
# A daily triage run as an ops lead has it (issue 36: --since-index with 1 % of the bundles
# changed should cost at most 3 % of a full run): a fleet of N bundles from SampleLogs, a full
# run, 1 % of the bundles edited (a line appended to one file each), a --since-index run; then a
# re-run with nothing changed. Each timed run writes where the last one did, as users run it.
#
#   Benchmarks/daily_run.sh BINARY [N]        # N defaults to 2000
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
n=${2:-2000}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Scripts/make_triage_fleet.py "$n" "$work/fleet" >/dev/null
now() { date +%s.%N; }
t0=$(now); "$bin" triage "$work/fleet" --output "$work/out" >/dev/null 2>&1; t1=$(now)
i=0
for d in $(ls "$work/fleet"); do
  if [ $((i % 100)) -eq 0 ]; then
    f=$(find "$work/fleet/$d" -type f | sort | head -1)
    printf '\n' >> "$f"
  fi
  i=$((i + 1))
done
t2=$(now); summary=$("$bin" triage "$work/fleet" --output "$work/out" --since-index 2>&1 | grep -o "[0-9]* analysed, [0-9]* unchanged"); t3=$(now)
t4=$(now); "$bin" triage "$work/fleet" --output "$work/out" --since-index >/dev/null 2>&1; t5=$(now)
python3 - "$t0" "$t1" "$t2" "$t3" "$t4" "$t5" "$summary" "$n" <<'PY'
import sys
t = [float(x) for x in sys.argv[1:7]]
full, daily, idle = t[1] - t[0], t[3] - t[2], t[5] - t[4]
print("fleet %s bundles: full %.2f s; 1 %% changed (%s) %.3f s = %.1f %% of full; nothing changed %.3f s = %.1f %%"
      % (sys.argv[8], full, sys.argv[7], daily, 100 * daily / full, idle, 100 * idle / full))
PY
