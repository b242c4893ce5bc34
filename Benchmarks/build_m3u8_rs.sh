#!/usr/bin/env bash
# Builds the Rust peer `m3u8-rs` (6.0) into .build-bench/peers/ as a one-shot process that parses a
# media playlist and prints its segment count, or with `--repeat N` reads and parses N times in
# the process and prints the median seconds of one: the peer run.py compares with next to
# quick-m3u8. Offline, like build_quick_m3u8.sh: the source from a git checkout (M3U8_RS_SRC, by
# default where the search tool's `fetch` puts it), nom 7 and chrono 0.4 from Debian's
# librust-nom-dev and librust-chrono-dev as a cargo directory source. None of the peer's code
# enters this repository. Prints the binary's path; exits 1 when the source is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${M3U8_RS_SRC:-/work/.mirror/rutgersc+m3u8-rs/repo}
out=$PWD/.build-bench/peers-m3u8-rs
bin=$out/segments/target/release/m3u8-rs-segments
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1 || { echo "no git checkout at $src" >&2; exit 1; }
command -v cargo >/dev/null || { echo "no cargo" >&2; exit 1; }
[ -d /usr/share/cargo/registry/nom-7.1.1 ] || apt-get install -y -q librust-nom-dev librust-chrono-dev >/dev/null
rm -rf "$out" && mkdir -p "$out/m3u8-rs"
git --git-dir="$src" archive HEAD | tar -x -C "$out/m3u8-rs"
rm -f "$out/m3u8-rs/Cargo.lock"
# shellcheck source=Benchmarks/rust_peer.sh
. Benchmarks/rust_peer.sh
rust_peer_project "$out/segments" m3u8-rs-segments 2021 'm3u8-rs = { path = "../m3u8-rs" }'
cat > "$out/segments/src/main.rs" <<'RS'
// One media playlist in, its segments parsed (URI, duration, byte range, dates, keys): the
// library's own segment table. `--repeat N`: the median seconds of one read and parse.
fn parse(path: &str) -> usize {
    let bytes = std::fs::read(path).expect("readable file");
    match m3u8_rs::parse_media_playlist_res(&bytes) {
        Ok(playlist) => playlist.segments.len(),
        Err(_) => 0,
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: m3u8-rs-segments FILE [--repeat N]");
    if std::env::args().nth(2).as_deref() == Some("--repeat") {
        let n: usize = std::env::args().nth(3).and_then(|s| s.parse().ok()).unwrap_or(5);
        let mut times: Vec<f64> = (0..n)
            .map(|_| {
                let start = std::time::Instant::now();
                std::hint::black_box(parse(&path));
                start.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{:.6}", times[times.len() / 2]);
        return;
    }
    println!("{}", parse(&path));
}
RS
(cd "$out/segments" && cargo build --release --offline -q) >&2
echo "$bin"
