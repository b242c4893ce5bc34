#!/usr/bin/env python3
"""Measures parsers, ingest, analyze and triage against baselines in the same run; see run.sh."""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

MB, BUNDLES, RUNS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
INPUTS = os.path.join(ROOT, ".build-bench", "inputs-%d-%d" % (MB, BUNDLES))
BIN = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, capture_output=True,
                     text=True, check=True).stdout.strip()
CLI = os.path.join(BIN, "playback-forensics")
BENCH = os.path.join(BIN, "playback-forensics-bench")

if not os.path.isdir(os.path.join(INPUTS, "fleet")):
    subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "make_inputs.py"), INPUTS, str(MB), str(BUNDLES)],
                   check=True)


def path(name):
    return os.path.join(INPUTS, name)


def size_mb(name):
    return os.path.getsize(path(name)) / 1e6


def timed(cmd, runs=RUNS, **kw):
    """Median wall time of `cmd` and the peak RSS (KB) of its children."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def peak_rss(cmd):
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def bench(fmt, name):
    """Median of RUNS fresh processes, each timing one ingest of the file in-process (read, gunzip,
    parse): what a user's single run gets, cold heap included, as python m3u8 is timed per process."""
    runs = []
    for _ in range(RUNS):
        out = subprocess.run([BENCH, fmt, path(name), "1"], check=True, capture_output=True, text=True).stdout
        seconds, _, _, records = out.split()
        runs.append((float(seconds), int(records)))
    median = statistics.median(s for s, _ in runs)
    records = runs[0][1]
    return median, size_mb(name) / median, records / median, records


rows = []


def row(what, value, target="", ok=""):
    rows.append((what, value, target, ok))


# Playlists vs python m3u8.
med, mbs, rps, recs = bench("playlist-capture", "vod-43200.m3u8")
py = timed([sys.executable, "-c", "import m3u8,sys; m3u8.loads(open(sys.argv[1]).read())", path("vod-43200.m3u8")])
py_import = timed([sys.executable, "-c", "import m3u8"])
py_parse = max(py - py_import, 1e-9)
row("playlist 43,200 segments: ours", "%.1f MB/s, %.0f records/s (%.4f s)" % (mbs, rps, med), ">= 300 MB/s",
    "yes" if mbs >= 300 else "no")
row("python m3u8 %s on the same playlist" % __import__("m3u8").__version__ if hasattr(__import__("m3u8"), "__version__") else "python m3u8",
    "%.1f MB/s (%.3f s parse, import excluded)" % (size_mb("vod-43200.m3u8") / py_parse, py_parse))
row("ratio ours / python m3u8", "%.0f×" % (py_parse / med), ">= 200×", "yes" if py_parse / med >= 200 else "no")
med_live, mbs_live, rps_live, _ = bench("playlist-capture", "live-500k.m3u8")
row("live playlist 500k lines: ours", "%.1f MB/s, %.0f records/s" % (mbs_live, rps_live), ">= 300 MB/s",
    "yes" if mbs_live >= 300 else "no")

# Gzip ingest vs zcat, and the cat floor.
for name, fmt in [("vod-43200.m3u8.gz", "playlist-capture"), ("metrics.jsonl.gz", "metric-events")]:
    med_gz, _, _, _ = bench(fmt, name)
    zcat = timed(["sh", "-c", "zcat '%s' > /dev/null" % path(name)])
    row("%s ingest vs zcat" % name, "%.3f s vs %.3f s = %.2f×" % (med_gz, zcat, med_gz / zcat), "<= 1.3×",
        "yes" if med_gz / zcat <= 1.3 else "no")
cat = timed(["sh", "-c", "cat '%s' > /dev/null" % path("metrics.jsonl")])
row("cat metrics.jsonl (I/O floor)", "%.1f MB/s" % (size_mb("metrics.jsonl") / cat))

# Metric dump and cache log.
for name, fmt in [("metrics.jsonl", "metric-events"), ("KTVHTTPCache.log", "cache-log")]:
    med, mbs, rps, recs = bench(fmt, name)
    row("%s (%.0f MB): ours" % (name, size_mb(name)), "%.1f MB/s, %.0f records/s" % (mbs, rps), ">= 150 MB/s",
        "yes" if mbs >= 150 else "no")
rss = peak_rss([CLI, "parse", path("metrics.jsonl")])
row("parse metrics.jsonl peak RSS", "%.0f MB" % (rss / 1024))

# End to end.
t = timed([CLI, "analyze", path("metrics.jsonl")], runs=1)
row("analyze metrics.jsonl end to end", "%.2f s, peak RSS %.0f MB" % (t, peak_rss([CLI, "analyze", path("metrics.jsonl")]) / 1024))
# Each triage run writes into a new directory, as a user's run would: re-creating thousands of
# report files right where the previous run's were deleted charged the file system's deferred work
# for the deletion (ext4 journal and discard) to the run being timed, seconds of noise.
out_root = os.path.join(INPUTS, "triage-out")
shutil.rmtree(out_root, ignore_errors=True)
os.makedirs(out_root)
out_count = [0]


def fresh_out():
    out_count[0] += 1
    return os.path.join(out_root, "run-%d" % out_count[0])


def timed_triage(jobs, runs):
    times = []
    for _ in range(runs):
        cmd = [CLI, "triage", path("fleet"), "--output", fresh_out(), "--jobs", str(jobs)]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


results = {}
for jobs in (1, 2):
    results[jobs] = timed_triage(jobs, RUNS)
    row("triage %d bundles, %d job%s" % (BUNDLES, jobs, "" if jobs == 1 else "s"), "%.2f s" % results[jobs])
row("triage speed-up 2 jobs / 1 job", "%.2f×" % (results[1] / results[2]), ">= 1.8×",
    "yes" if results[1] / results[2] >= 1.8 else "no")
half = os.path.join(INPUTS, "fleet-quarter")
if not os.path.isdir(half):
    os.makedirs(half)
    for n in sorted(os.listdir(path("fleet")))[: BUNDLES // 4]:
        os.symlink(os.path.join(path("fleet"), n), os.path.join(half, n))
r_small = peak_rss([CLI, "triage", half, "--output", fresh_out(), "--jobs", "2"])
r_big = peak_rss([CLI, "triage", path("fleet"), "--output", fresh_out(), "--jobs", "2"])
shutil.rmtree(out_root, ignore_errors=True)
row("triage peak RSS, %d vs %d bundles" % (BUNDLES // 4, BUNDLES), "%.0f MB vs %.0f MB" % (r_small / 1024, r_big / 1024),
    "flat", "yes" if r_big < r_small * 1.5 else "no")

w = max(len(r[0]) for r in rows)
v = max(len(r[1]) for r in rows)
print("| %s | %s | target | met |" % ("measure".ljust(w), "value".ljust(v)))
print("| %s | %s | --- | --- |" % ("-" * w, "-" * v))
for a, b, c, d in rows:
    print("| %s | %s | %s | %s |" % (a.ljust(w), b.ljust(v), c, d))
