#!/usr/bin/env python3
"""Structure-aware inputs for the fuzzers, built with the hostile-bundle generators.

  python3 Scripts/fuzz_inputs.py regressions   writes Fuzz/regressions/bundle/hostile-*: a small
                                               file for each case of issue 16, replayed by
                                               `swift test` (FuzzRegressionTests)
  python3 Scripts/fuzz_inputs.py seeds DIR     writes structured seeds for Scripts/fuzz.sh: tar
                                               with octal, base-256 and negative sizes; zips with
                                               overlapping, nested and corrupt members; stacked,
                                               cut and padded gzip; HAR with ranges and base64/gzip
                                               bodies; logs with Int64 limits, CR-only endings,
                                               escapes and bidi overrides

libFuzzer mutates bytes; seeds with the archive and document structure already right let its
mutations reach the size fields, offsets and counters where the issue's crashes were.
"""
import base64
import gzip
import io
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_bundles as h  # noqa: E402

INT64_MAX = 0x7FFFFFFFFFFFFFFF


def access_log(rows, **kw):
    return (h.ACCESS_HEAD + "".join(h.access_row(i, **kw) for i in range(rows))).encode()


def zip_bytes(members, method=zipfile.ZIP_DEFLATED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


def overlapping_zip(kernel, count):
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "pf-fuzz-overlap-%d.zip" % os.getpid())
    h.zip_overlapping(path, kernel, count)
    data = open(path, "rb").read()
    os.remove(path)
    return data


def har(entries):
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "fuzz", "version": "1"}, "entries": entries}}).encode()


def har_entry(i, url, status=200, headers=(), body=None, encoding=None):
    content = {"size": 10, "mimeType": "application/vnd.apple.mpegurl"}
    if body is not None:
        content["text"] = body
        if encoding:
            content["encoding"] = encoding
    return {"startedDateTime": h.iso(i), "time": 50,
            "request": {"method": "GET", "url": url, "headers": [{"name": n, "value": v} for n, v in headers]},
            "response": {"status": status, "headers": [], "content": content}}


def regressions():
    """One small file per case of the hostile-bundle list (the suite's generators, scaled down)."""
    good = h.metric_event("AVMetricPlayerItemRateChangeEvent", h.iso(1), rate=1.0, previousRate=0.0, mediaTime=1).encode() + b"\n"
    log = access_log(5)
    playlist = b"#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + b"#EXTINF:6,\nseg.ts\n" * 50
    out = {
        "hostile-har-range-int64max.har": har([har_entry(i, "https://cdn.example.com/v/s%d.ts" % i, 206,
                                                         [("Range", "bytes=0-9223372036854775807")]) for i in range(3)]),
        "hostile-ktv-range-int64max.log": (
            b"2026-11-21 10:00:01 +0000  KTVHCDataRequest        :   0x2837f0a80, Create\n"
            b"URL : https://cdn.example.com/v/s1.ts\nHeaders : {\n    Range = \"bytes=0-9223372036854775807\";\n}\n"
            b"Range : {0, 9223372036854775807}\n"),
        "hostile-access-stalls-overflow.log": h.ACCESS_HEAD.encode()
        + h.access_row(1, stalls="9223372036854775807").encode() + h.access_row(2, stalls="1").encode(),
        "hostile-tar-base256-intmax.tar": h.tar_member("good.jsonl", good)
        + h.tar_header("evil.log", b"\x80" + INT64_MAX.to_bytes(11, "big")) + b"x" * 1024,
        "hostile-tar-base256-negative.tar": h.tar_member("good.jsonl", good) + h.tar_header("evil.log", b"\xff" * 12) + b"x" * 1024,
        "hostile-zip-overlapping.zip": overlapping_zip(log * 20, 40),
        "hostile-har-gzip-bodies.har.gz": gzip.compress(har([
            har_entry(i, "https://cdn.example.com/v/index%d.m3u8" % i, body=base64.b64encode(gzip.compress(playlist * 200)).decode(),
                      encoding="base64") for i in range(4)])),
        "hostile-ktv-long-continuation.log": (
            b"2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response\n" + (b"A" * 4096 + b"\n") * 16),
        "hostile-metric-glued-first-line.jsonl": good.rstrip() + good + good * 3,
        "hostile-metric-cut-first-line.jsonl": good[:30] + b"\n" + good * 3,
        "hostile-metric-batches.jsonl": b"".join(b'{"events":[' + good.rstrip() + b"," + good.rstrip() + b"]}\n" for _ in range(3)),
        "hostile-truncated.log.gz": gzip.compress(access_log(40, uri="https://c.example.com/%s.m3u8" % ("ab" * 30)))[:-40],
        "hostile-trailing-garbage.log.gz": gzip.compress(log) + b"\x13\x37garbage",
        "hostile-cut-tar.tar": (h.tar_member("good.jsonl", good) + h.tar_member("access.log", log))[:-700],
        "hostile-zip-in-zip.zip": zip_bytes([("inner.zip", zip_bytes([("access.log", log)]))], zipfile.ZIP_STORED),
        "hostile-gzip-of-gzip.log.gz": gzip.compress(gzip.compress(log)),
        "hostile-cr-only.log": log.replace(b"\n", b"\r"),
        "hostile-injection.har": har([har_entry(i, "https://evil.example\n# ALL CLEAR\n<img src=x onerror=alert(1)><!--/v/s%d.ts" % i, 503)
                                      for i in range(4)]),
        "hostile-escapes-bidi.log": h.ERROR_HEAD.encode() + "".join(
            "2026/11/21 10:00:0%d.000 https://cdn.example.com/v/s%d\u202e.ts %s 203.0.113.7 404 \"CoreMediaErrorDomain\" "
            "\"HTTP 404 \x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \x1b[2J\" en0\n" % (i, i, h.GUID) for i in range(3)).encode(),
    }
    bad_crc = bytearray(zip_bytes([("good.jsonl", good), ("access.log", log)]))
    i = bad_crc.find(b"access.log")
    sig = bad_crc.rfind(b"PK\x03\x04", 0, i)
    bad_crc[sig + 14] ^= 0xFF
    out["hostile-zip-bad-crc.zip"] = bytes(bad_crc)
    return out


def seeds():
    """More variety than the regressions: each structure with its numbers pushed to the edges."""
    out = dict(regressions())
    good = h.metric_event("AVMetricPlayerItemStallEvent", h.iso(2), rate=0.0, previousRate=1.0, mediaTime=2).encode() + b"\n"
    for label, field in (("octal-max", b"77777777777\0"), ("octal-zero", b"00000000000\0"),
                         ("b256-1tib", b"\x80" + (1 << 40).to_bytes(11, "big")), ("b256-small", b"\x80" + (100).to_bytes(11, "big"))):
        out["seed-tar-%s.tar" % label] = h.tar_member("a.jsonl", good) + h.tar_header("b.log", field) + b"y" * 600
    out["seed-tar.tar.gz"] = gzip.compress(h.tar_member("a.jsonl", good) + h.tar_member("b.log", access_log(3)) + b"\0" * 1024)
    out["seed-zip-stored.zip"] = zip_bytes([("a.jsonl", good), ("b.log", access_log(3))], zipfile.ZIP_STORED)
    out["seed-zip-deflated.zip"] = zip_bytes([("a.jsonl", good), ("b/c.log", access_log(3)), ("../d.log", good)])
    out["seed-zip-nested-3.zip"] = zip_bytes([("1.zip", zip_bytes([("2.zip", zip_bytes([("3.log", access_log(2))]))]))])
    out["seed-gzip-multi.log.gz"] = gzip.compress(access_log(2)) + gzip.compress(h.access_row(9).encode())
    out["seed-gzip-x4.log.gz"] = gzip.compress(gzip.compress(gzip.compress(gzip.compress(access_log(2)))))
    out["seed-har-ranges.har"] = har([har_entry(i, "https://cdn.example.com/v/s.ts", 206, [("Range", r)])
                                      for i, r in enumerate(["bytes=0-", "bytes=-500", "bytes=9223372036854775806-9223372036854775807",
                                                             "bytes=5-1", "bytes=0-1,5-9"])])
    out["seed-har-body-gzip.har"] = har([har_entry(0, "https://cdn.example.com/v/index.m3u8",
                                                   body=base64.b64encode(gzip.compress(b"#EXTM3U\n#EXTINF:6,\na.ts\n")).decode(), encoding="base64")])
    out["seed-access-limits.log"] = h.ACCESS_HEAD.encode() + b"".join(
        h.access_row(i, stalls=v).encode() for i, v in enumerate(["-1", "9223372036854775807", "1e308", "NaN", "4294967295"]))
    return out


def write(directory, files):
    os.makedirs(directory, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(files), directory))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "regressions":
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        write(os.path.join(root, "Fuzz", "regressions", "bundle"), regressions())
    elif len(sys.argv) >= 3 and sys.argv[1] == "seeds":
        write(sys.argv[2], seeds())
    else:
        sys.exit(__doc__)
