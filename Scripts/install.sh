#!/usr/bin/env bash
# Installs playback-forensics as one static executable: the Swift runtime, Foundation, zlib and
# SQLite linked in, so it runs on any x86_64/arm64 Linux with no Swift toolchain and no shared
# library beyond the kernel's vDSO (checked by Scripts/check_installed.sh).
#
#   Scripts/install.sh [PREFIX]      # default ~/.local; the binary goes to PREFIX/bin
#
# Why fully static (-static-executable, not only --static-swift-stdlib): a dynamically linked
# binary spends most of a short run in the dynamic loader (5.5 M instructions for --version,
# 80 % of it relocations and symbol look-ups; 0.23 M static) and runs only beside the toolchain's
# libraries. Needs the static zlib and SQLite archives (zlib1g-dev, libsqlite3-dev).
set -euo pipefail
prefix=${1:-$HOME/.local}
cd "$(dirname "$0")/.."
build=.build/static
mkdir -p "$build"
log="$build/install.log"
echo "building a static playback-forensics (a few minutes; log: $log)"
if ! swift build -c release --product playback-forensics --build-path "$build" \
  --static-swift-stdlib -Xswiftc -static-executable >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "install: the build failed (full log: $log)" >&2
  exit 1
fi
binary="$build/release/playback-forensics"
[ -x "$binary" ] || { echo "install: the build did not produce $binary" >&2; exit 1; }
mkdir -p "$prefix/bin"
if command -v strip >/dev/null 2>&1; then
  strip -o "$prefix/bin/playback-forensics.new" "$binary"
else
  cp "$binary" "$prefix/bin/playback-forensics.new"
fi
mv "$prefix/bin/playback-forensics.new" "$prefix/bin/playback-forensics"
echo "installed $prefix/bin/playback-forensics ($("$prefix/bin/playback-forensics" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add it to PATH: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
