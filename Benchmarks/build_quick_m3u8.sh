#!/usr/bin/env bash
# Builds the Rust peer `quick-m3u8` (0.7) into .build-bench/peers/ as a one-shot process that
# parses a playlist into a segment table (URI, duration, media sequence number) and writes it as
# JSON lines: the whole-process peer of `playback-forensics parse FILE --json` in run.py.
#
# Offline: the peer's source comes from git checkouts (QUICK_M3U8_SRC, FAST_FLOAT2_SRC: git
# directories, by default where the search tool's `fetch` puts them); its one registry crate,
# memchr, from Debian's librust-memchr-dev (2.5) as a cargo directory source. The manifest is
# edited to match: memchr "2.5", fast-float2 as a path dependency, no dev-dependencies or benches.
# None of the peer's code enters this repository. Prints the binary's path; exits 1 (and run.py
# skips the row) when a source is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
m3u8_src=${QUICK_M3U8_SRC:-/work/.mirror/theRealRobG+m3u8/repo}
float_src=${FAST_FLOAT2_SRC:-/work/.mirror/Alexhuszagh+fast-float-rust/repo}
out=$PWD/.build-bench/peers
# The main program changes: a new name rebuilds it.
bin=$out/segment-table/target/release/quick-m3u8-segment-table
stamp=$out/segment-table/.version-2
if [ -x "$bin" ] && [ -e "$stamp" ]; then echo "$bin"; exit 0; fi
for src in "$m3u8_src" "$float_src"; do
  git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1 || { echo "no git checkout at $src" >&2; exit 1; }
done
command -v cargo >/dev/null || { echo "no cargo" >&2; exit 1; }
[ -d /usr/share/cargo/registry/memchr-2.5.0 ] || apt-get install -y -q librust-memchr-dev >/dev/null
rm -rf "$out" && mkdir -p "$out/quick-m3u8" "$out/fast-float2"
git --git-dir="$m3u8_src" archive HEAD | tar -x -C "$out/quick-m3u8"
git --git-dir="$float_src" archive HEAD | tar -x -C "$out/fast-float2"
python3 - "$out" <<'EOF'
import re, sys
out = sys.argv[1]
def strip(path, edits):
    text = open(path).read()
    # Sections only the peer's own tests and benchmarks use.
    text = re.sub(r'\n\[dev-dependencies\][^\[]*', '\n', text)
    text = re.sub(r'\n\[\[bench\]\][^\[]*', '\n', text)
    for old, new in edits:
        text = re.sub(old, new, text)
    open(path, 'w').write(text)
strip(out + '/quick-m3u8/Cargo.toml',
      [(r'memchr = "[^"]*"', 'memchr = "2.5"'), (r'fast-float2 = "[^"]*"', 'fast-float2 = { path = "../fast-float2" }')])
strip(out + '/fast-float2/Cargo.toml', [])
EOF
rm -f "$out/quick-m3u8/Cargo.lock"
# shellcheck source=Benchmarks/rust_peer.sh
. Benchmarks/rust_peer.sh
rust_peer_project "$out/segment-table" quick-m3u8-segment-table 2024 'quick-m3u8 = { path = "../quick-m3u8" }'
cat > "$out/segment-table/src/main.rs" <<'EOF'
// One playlist file in, its segment table out as JSON lines: what a user of the library writes
// to get the segments of a playlist. With `--repeat N`: read and parse N times in the process,
// print the median seconds of one (the in-process figure, warm, as our bench's).
use quick_m3u8::{HlsLine, Reader, config::ParsingOptionsBuilder, tag::KnownTag, tag::hls::Tag};
use std::io::Write;

struct Segment<'a> { uri: std::borrow::Cow<'a, str>, duration: f64, sequence: u64 }

fn main() {
    let path = std::env::args().nth(1).expect("usage: quick-m3u8-segment-table FILE [--repeat N]");
    if std::env::args().nth(2).as_deref() == Some("--repeat") {
        let n: usize = std::env::args().nth(3).and_then(|s| s.parse().ok()).unwrap_or(5);
        let mut times = Vec::new();
        for _ in 0..n {
            let start = std::time::Instant::now();
            let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
            let (segments, _) = table(&text);
            std::hint::black_box(segments.len());
            times.push(start.elapsed().as_secs_f64());
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{:.6}", times[times.len() / 2]);
        return;
    }
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    let (segments, errors) = table(&text);
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    for s in &segments {
        let uri = s.uri.replace('\\', "\\\\").replace('"', "\\\"");
        writeln!(w, "{{\"uri\":\"{}\",\"duration\":{},\"sequence\":{}}}", uri, s.duration, s.sequence).unwrap();
    }
    writeln!(w, "{{\"segments\":{},\"errors\":{}}}", segments.len(), errors).unwrap();
}

fn table(text: &str) -> (Vec<Segment<'_>>, usize) {
    let mut reader = Reader::from_str(text, ParsingOptionsBuilder::new().with_parsing_for_all_tags().build());
    let (mut segments, mut sequence, mut duration, mut errors) = (Vec::new(), 0u64, 0.0f64, 0usize);
    loop {
        match reader.read_line() {
            Ok(Some(HlsLine::KnownTag(KnownTag::Hls(Tag::MediaSequence(m))))) => sequence = m.media_sequence(),
            Ok(Some(HlsLine::KnownTag(KnownTag::Hls(Tag::Inf(i))))) => duration = i.duration(),
            Ok(Some(HlsLine::Uri(uri))) => {
                segments.push(Segment { uri, duration, sequence });
                sequence += 1;
            }
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(_) => errors += 1,
        }
    }
    (segments, errors)
}
EOF
(cd "$out/segment-table" && cargo build --release --offline -q) >&2
touch "$stamp"
echo "$bin"
