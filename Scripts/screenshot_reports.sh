#!/usr/bin/env bash
# Every sample bundle's HTML report, and its screenshots at the widths people read it at
# (760 px: a laptop's half screen or a ticket pane; 1280; 1920), for looking at before a report
# change is called done.
#
#   Scripts/screenshot_reports.sh OUTDIR [BINARY]
#
# Needs chromium (apt). Writes OUTDIR/NAME.html and OUTDIR/NAME-WIDTH.png.
set -euo pipefail
out=${1:?usage: screenshot_reports.sh OUTDIR [BINARY]}
bin=${2:-.build/debug/playback-forensics}
cd "$(dirname "$0")/.."
mkdir -p "$out"
for bundle in SampleLogs/*; do
  name=$(basename "$bundle")
  [ "$name" = README.md ] && continue
  "$bin" analyze "$bundle" --report html --output "$out/$name.html" || [ $? -eq 2 ]
  for width in 760 1280 1920; do
    python3 Scripts/render_report.py "$out/$name.html" "$out/$name-$width.png" --width "$width" >/dev/null
  done
  echo "$out/$name: 760 1280 1920"
done
