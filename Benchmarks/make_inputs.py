#!/usr/bin/env python3
"""Generates the benchmark inputs (deterministic): a 43,200-segment VOD playlist and its gzip, a
500,000-line live playlist, a metric dump and a KTVHTTPCache log of the given size (MB), and a
triage directory of N bundles. Usage: make_inputs.py OUTDIR [MB] [BUNDLES]"""
import gzip
import os
import subprocess
import sys

out = sys.argv[1]
mb = int(sys.argv[2]) if len(sys.argv) > 2 else 200
bundles = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
os.makedirs(out, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))


def write(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


# 43,200 two-second segments = a 24 h VOD playlist with keys, maps and date-times.
lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0",
         "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS", '#EXT-X-MAP:URI="init.mp4"',
         '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"']
for i in range(43200):
    if i % 1800 == 0:
        lines.append("#EXT-X-PROGRAM-DATE-TIME:2026-11-21T%02d:00:00.000Z" % (i // 1800))
    lines += ["#EXTINF:2.000,", "segment_%05d.m4s" % i]
lines.append("#EXT-X-ENDLIST")
vod = "\n".join(lines) + "\n"
write("vod-43200.m3u8", vod)
with gzip.open(os.path.join(out, "vod-43200.m3u8.gz"), "wb", compresslevel=6) as f:
    f.write(vod.encode())

# A live playlist of 500,000 lines (1 s parts and segments, low latency).
lines = ["#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:1000000",
         '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0', "#EXT-X-PART-INF:PART-TARGET=0.5"]
i = 0
while len(lines) < 500000:
    lines += ["#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:%02d.000Z" % (i % 60), "#EXTINF:1.00000,", "live_%07d.m4s" % i]
    i += 1
write("live-500k.m3u8", "\n".join(lines[:500000]) + "\n")

# Metric dump and cache log of about MB megabytes, from the SampleLogs' shapes.
metric_line = ('{"type":"AVMetricHLSMediaSegmentRequestEvent","date":"2026-11-21T10:%02d:%02d.%03dZ","sessionID":"BENCH",'
               '"url":"https://cdn.example.com/v/s%d.m4s","isMapSegment":false,"mediaType":"vide","segmentDuration":6.0,'
               '"indexFileURL":"https://cdn.example.com/v/index.m3u8","mediaResourceRequestEvent":{"url":"https://cdn.example.com/v/s%d.m4s",'
               '"requestStartTime":"2026-11-21T10:%02d:%02d.000Z","responseEndTime":"2026-11-21T10:%02d:%02d.%03dZ","readFromCache":false,'
               '"networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":200,"headers":{"Content-Type":"video/mp4"}},'
               '"countOfResponseBodyBytesReceived":1500000}]}}}\n')
target = mb * 1000 * 1000
with open(os.path.join(out, "metrics.jsonl"), "w") as f:
    size = 0
    n = 0
    while size < target:
        m, s = (n // 60) % 60, n % 60
        line = metric_line % (m, s, n % 1000, n, n, m, s, m, s, (n * 7) % 1000)
        f.write(line)
        size += len(line)
        n += 1
entry = ("2026-11-21 10:%02d:%02d +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin\n"
         "Length : 16384\nURL : https://media.example.com/vod/clip-%d.mp4\n"
         "2026-11-21 10:%02d:%02d +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 16384, %d, 5510872\n")
with open(os.path.join(out, "KTVHTTPCache.log"), "w") as f:
    size = 0
    n = 0
    while size < target:
        m, s = (n // 60) % 60, n % 60
        text = entry % (m, s, n % 50, m, s, n * 16384 % 5510872)
        f.write(text)
        size += len(text)
        n += 1
with open(os.path.join(out, "metrics.jsonl"), "rb") as src, gzip.open(os.path.join(out, "metrics.jsonl.gz"), "wb", compresslevel=6) as dst:
    while True:
        chunk = src.read(1 << 20)
        if not chunk:
            break
        dst.write(chunk)
subprocess.run([sys.executable, os.path.join(here, "..", "Scripts", "make_triage_fleet.py"), str(bundles),
                os.path.join(out, "fleet")], check=True, stdout=subprocess.DEVNULL)
print("inputs in", out)
