#!/usr/bin/env bash
# Checks an installed playback-forensics the way a machine without Swift runs it: no shared
# library needed, nothing of the toolchain on PATH or the library path, and it analyses and
# triages sample bundles as the build under test does.
#
#   Scripts/check_installed.sh BINARY
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
fail() { echo "check_installed: $*" >&2; exit 1; }
# 1. Static: the loader has nothing to load.
if ldd "$bin" >/dev/null 2>&1; then
  ldd "$bin" | grep -q "not a dynamic executable" || fail "$bin is dynamically linked: $(ldd "$bin" | tr '\n' ' ')"
fi
if command -v readelf >/dev/null 2>&1 && readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
  fail "$bin needs shared libraries: $(readelf -d "$bin" | grep NEEDED | tr '\n' ' ')"
fi
# 2. A clean environment: no Swift on PATH, no library path, another time zone.
clean=(env -i PATH=/usr/bin:/bin TZ=Asia/Kolkata LD_LIBRARY_PATH=)
version=$("${clean[@]}" "$bin" --version) || fail "--version failed"
[ -n "$version" ] || fail "--version printed nothing"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
"${clean[@]}" "$bin" analyze SampleLogs/cdn-404-stall --report json --output "$tmp/report.json" --fail-on warning || status=$?
[ "$status" -eq 2 ] || fail "analyze --fail-on warning exited $status, not 2 (problems found)"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['verdict']['status']=='problems-found', r['verdict']" "$tmp/report.json" \
  || fail "the JSON report is not what the build under test writes"
"${clean[@]}" "$bin" analyze SampleLogs/three-sessions.tar.gz --report html --output "$tmp/report.html"
grep -q 'class="picture"' "$tmp/report.html" || fail "the HTML report has no session picture"
mkdir -p "$tmp/fleet"
cp -R SampleLogs/cdn-404-stall SampleLogs/clean-session.zip "$tmp/fleet/"
"${clean[@]}" "$bin" triage "$tmp/fleet" --output "$tmp/triage" >/dev/null 2>&1 || status=$?
[ -s "$tmp/triage/triage.sqlite" ] && [ -s "$tmp/triage/index.html" ] || fail "triage wrote no index"
echo "check_installed: $bin ($version) is static and runs with no toolchain"
