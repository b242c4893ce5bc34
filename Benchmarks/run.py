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
# BENCH_BIN_DIR measures another build's binaries against the same peers (a "before" column).
BIN = os.environ.get("BENCH_BIN_DIR") or subprocess.run(
    ["swift", "build", "-c", "release", "--static-swift-stdlib", "-Xswiftc", "-static-executable", "--build-path",
     ".build/static", "--show-bin-path"],
    cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
# BENCH_CLI: the binary as installed (run.sh installs it with Scripts/install.sh: static, stripped).
CLI = os.environ.get("BENCH_CLI") or os.path.join(BIN, "playback-forensics")
BENCH = os.path.join(BIN, "playback-forensics-bench")

if not os.path.isdir(os.path.join(INPUTS, "fleet")):
    subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "make_inputs.py"), INPUTS, str(MB), str(BUNDLES)],
                   check=True, stdout=subprocess.DEVNULL)


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
# Every record read: the shipped limits (250,000 records a file) would stop a 200 MB dump early.
WHOLE = ["--max-records-per-file", "100000000", "--max-records", "100000000"]
t = timed([CLI, "analyze", path("metrics.jsonl")] + WHOLE, runs=1)
row("analyze metrics.jsonl end to end",
    "%.2f s, peak RSS %.0f MB" % (t, peak_rss([CLI, "analyze", path("metrics.jsonl")] + WHOLE) / 1024))
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

# Whole process against whole process: a user runs one process, and so does every peer. Peers:
# python with orjson (and pysimdjson when installed) reading the metric dump line by line into
# dicts, lnav indexing the cache log (`-n -c` with a count query: it reads and indexes every line,
# prints one number), python m3u8 and zcat as whole processes.
PY = sys.executable


def importable(module):
    return subprocess.run([PY, "-c", "import " + module], capture_output=True).returncode == 0


JSON_PEERS = [("orjson", "import orjson,sys\nfor l in open(sys.argv[1],'rb'):\n    orjson.loads(l)\n"),
              ("pysimdjson", "import simdjson,sys\np=simdjson.Parser()\n"
                             "for l in open(sys.argv[1],'rb'):\n    p.parse(l).as_dict()\n")]
JSON_PEERS = [(name, code) for name, code in JSON_PEERS if importable("simdjson" if name == "pysimdjson" else name)]
LNAV = shutil.which("lnav")
# The Rust quick-m3u8 as a one-shot process building the segment table (build_quick_m3u8.sh);
# skipped when its sources are not on this machine.
_quick = subprocess.run(["bash", os.path.join(ROOT, "Benchmarks", "build_quick_m3u8.sh")], capture_output=True,
                        text=True)
QUICK = _quick.stdout.strip() if _quick.returncode == 0 else None
_m3u8_rs = subprocess.run(["bash", os.path.join(ROOT, "Benchmarks", "build_m3u8_rs.sh")], capture_output=True,
                          text=True)
M3U8_RS = _m3u8_rs.stdout.strip() if _m3u8_rs.returncode == 0 else None


def whole(label, ours_cmd, peer_label, peer_cmd):
    # A process of a few milliseconds moves with the scheduler: those take the median of 21.
    runs = RUNS if timed(ours_cmd, runs=1) > 0.1 else max(RUNS, 21)
    ours_t = timed(ours_cmd, runs=runs)
    peer_t = timed(peer_cmd, runs=runs)
    ours_m = peak_rss(ours_cmd)
    peer_m = peak_rss(peer_cmd)
    # Say what "ours" ran: the installed CLI as users run it, or the bench binary's ingest alone.
    what = ("bench ingest only: read, gunzip, parse, redact — not analyze" if ours_cmd[0] == BENCH
            else "end to end: playback-forensics " + ours_cmd[1])
    row("%s: ours (%s) vs %s (whole processes)" % (label, what, peer_label),
        "%.3f s vs %.3f s = %.2f× (peak RSS %.0f vs %.0f MB)" % (ours_t, peer_t, ours_t / peer_t, ours_m / 1024,
                                                                 peer_m / 1024),
        "<= 1×", "yes" if ours_t <= peer_t else "no")


# Each peer twice: against `analyze` as a user runs it (the installed binary, the JSON report to
# /dev/null, whole files), then against the bench's ingest alone.
ANALYZE = lambda name: [CLI, "analyze", path(name), "--report", "json", "--output", "/dev/null"] + WHOLE  # noqa: E731
for peer, code in JSON_PEERS:
    whole("metrics.jsonl", ANALYZE("metrics.jsonl"), "python " + peer, [PY, "-c", code, path("metrics.jsonl")])
    whole("metrics.jsonl", [BENCH, "metric-events", path("metrics.jsonl"), "1"], "python " + peer,
          [PY, "-c", code, path("metrics.jsonl")])
if LNAV:
    lnav_cmd = [LNAV, "-n", "-c", ";SELECT count(*) FROM all_logs", path("KTVHTTPCache.log")]
    whole("KTVHTTPCache.log", ANALYZE("KTVHTTPCache.log"), "lnav indexing", lnav_cmd)
    whole("KTVHTTPCache.log", [BENCH, "cache-log", path("KTVHTTPCache.log"), "1"], "lnav indexing", lnav_cmd)
whole("vod-43200.m3u8 parse --json", [CLI, "parse", path("vod-43200.m3u8"), "--json"], "python m3u8 process",
      [PY, "-c", "import m3u8,sys; m3u8.loads(open(sys.argv[1]).read())", path("vod-43200.m3u8")])
if QUICK:
    whole("vod-43200.m3u8 parse --json", [CLI, "parse", path("vod-43200.m3u8"), "--json"], "quick-m3u8 process",
          [QUICK, path("vod-43200.m3u8")])
if QUICK:
    whole("vod-43200.m3u8 analyze", [CLI, "analyze", path("vod-43200.m3u8")], "quick-m3u8 process",
          [QUICK, path("vod-43200.m3u8")])


def in_process(peer_label, peer_cmd):
    """In-process, warm: the median of one read and parse among several in one process, each side."""
    n = max(RUNS, 15)
    ours_in = float(subprocess.run([BENCH, "playlist-capture", path("vod-43200.m3u8"), str(n)], check=True,
                                   capture_output=True, text=True).stdout.split()[0])
    peer_in = float(subprocess.run(peer_cmd + ["--repeat", str(n)], check=True, capture_output=True,
                                   text=True).stdout.split()[0])
    row("vod-43200.m3u8 read and parse in-process, warm: ours vs %s" % peer_label,
        "%.4f s vs %.4f s = %.2f×" % (ours_in, peer_in, ours_in / peer_in), "<= 1×",
        "yes" if ours_in <= peer_in else "no")


if QUICK:
    in_process("quick-m3u8", [QUICK, path("vod-43200.m3u8")])
if M3U8_RS:
    in_process("m3u8-rs", [M3U8_RS, path("vod-43200.m3u8")])
if shutil.which("jq"):
    whole("metrics.jsonl", [BENCH, "metric-events", path("metrics.jsonl"), "1"], "jq -c .",
          ["sh", "-c", "exec jq -c . \"$0\" > /dev/null", path("metrics.jsonl")])
# Through a pipe: GNU grep stops at the first match when its output is /dev/null.
whole("KTVHTTPCache.log", [BENCH, "cache-log", path("KTVHTTPCache.log"), "1"], "grep -c",
      ["sh", "-c", "grep -c KTVHC \"$0\" | cat > /dev/null", path("KTVHTTPCache.log")])
if shutil.which("libdeflate-gunzip"):
    # The inflaters alone: system zlib (what we use) and the fastest one on the machine.
    z = timed(["sh", "-c", "exec zcat \"$0\" > /dev/null", path("metrics.jsonl.gz")])
    d = timed(["sh", "-c", "exec libdeflate-gunzip -c \"$0\" > /dev/null", path("metrics.jsonl.gz")])
    row("inflate metrics.jsonl.gz: zlib (zcat) vs libdeflate-gunzip", "%.3f s vs %.3f s" % (z, d))
whole("vod-43200.m3u8.gz ingest", [BENCH, "playlist-capture", path("vod-43200.m3u8.gz"), "1"], "zcat process",
      ["sh", "-c", "exec zcat \"$0\" > /dev/null", path("vod-43200.m3u8.gz")])
whole("metrics.jsonl.gz ingest", [BENCH, "metric-events", path("metrics.jsonl.gz"), "1"], "zcat process",
      ["sh", "-c", "exec zcat \"$0\" > /dev/null", path("metrics.jsonl.gz")])
row("start-up: playback-forensics --version", "%.4f s (/bin/true %.4f s)" % (timed([CLI, "--version"], runs=max(RUNS, 9)),
                                                                            timed(["/bin/true"], runs=max(RUNS, 9))))

# Instructions per input byte, whole process, from callgrind (repeatable on a busy machine): on
# the 20 MB inputs whatever MB the run uses (callgrind runs ~50× slower). Our binaries are read
# through copies without debug information (valgrind cannot read that of binaries linking Yams).
if shutil.which("valgrind") and os.environ.get("BENCH_CALLGRIND", "1") != "0":
    SMALL = os.path.join(ROOT, ".build-bench", "inputs-20-40")
    if not os.path.isdir(os.path.join(SMALL, "fleet")):
        subprocess.run([PY, os.path.join(ROOT, "Benchmarks", "make_inputs.py"), SMALL, "20", "40"], check=True,
                       stdout=subprocess.DEVNULL)
    STRIPPED = os.path.join(ROOT, ".build-bench", "stripped")
    os.makedirs(STRIPPED, exist_ok=True)
    for binary in (CLI, BENCH):
        subprocess.run(["objcopy", "--strip-debug", binary, os.path.join(STRIPPED, os.path.basename(binary))],
                       check=True)
    S_CLI, S_BENCH = (os.path.join(STRIPPED, os.path.basename(b)) for b in (CLI, BENCH))

    def instructions(cmd):
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in r.stderr.splitlines():
            if "Collected :" in line:
                return int(line.split(":")[-1].strip())
        raise RuntimeError("callgrind printed no total for %s" % cmd)

    def per_byte(cmd, name):
        return instructions(cmd) / os.path.getsize(os.path.join(SMALL, name))

    def ir_row(label, name, ours_cmd, peer_label=None, peer_cmd=None):
        ours = per_byte(ours_cmd, name)
        if peer_cmd is None:
            row("instructions/byte, %s (20 MB inputs)" % label, "ours %.1f" % ours)
            return
        peer = per_byte(peer_cmd, name)
        row("instructions/byte, %s (20 MB inputs)" % label,
            "ours %.1f vs %s %.1f = %.2f×" % (ours, peer_label, peer, ours / peer), "<= 1×",
            "yes" if ours <= peer else "no")

    f = lambda n: os.path.join(SMALL, n)  # noqa: E731
    for peer, code in JSON_PEERS[:1]:
        ir_row("metrics.jsonl, whole process", "metrics.jsonl", [S_BENCH, "metric-events", f("metrics.jsonl"), "1"],
               "python " + peer, [PY, "-c", code, f("metrics.jsonl")])
    if LNAV:
        ir_row("KTVHTTPCache.log, whole process", "KTVHTTPCache.log", [S_BENCH, "cache-log", f("KTVHTTPCache.log"), "1"],
               "lnav indexing", [LNAV, "-n", "-c", ";SELECT count(*) FROM all_logs", f("KTVHTTPCache.log")])
    ir_row("vod-43200.m3u8 parse --json, whole process", "vod-43200.m3u8",
           [S_CLI, "parse", f("vod-43200.m3u8"), "--json"], "python m3u8",
           [PY, "-c", "import m3u8,sys; m3u8.loads(open(sys.argv[1]).read())", f("vod-43200.m3u8")])
    if QUICK:
        # In-process instructions of one read and parse: eleven in one process less one.
        def one_parse(cmd_for):
            return (instructions(cmd_for(11)) - instructions(cmd_for(1))) / 10 / os.path.getsize(f("vod-43200.m3u8"))
        ours_ip = one_parse(lambda k: [S_BENCH, "playlist-capture", f("vod-43200.m3u8"), str(k)])
        quick_ip = one_parse(lambda k: [QUICK, f("vod-43200.m3u8"), "--repeat", str(k)])
        row("instructions/byte, vod-43200.m3u8 read and parse in-process (one of eleven)",
            "ours %.1f vs quick-m3u8 %.1f = %.2f×" % (ours_ip, quick_ip, ours_ip / quick_ip), "<= 1×",
            "yes" if ours_ip <= quick_ip else "no")
        if M3U8_RS:
            rs_ip = one_parse(lambda k: [M3U8_RS, f("vod-43200.m3u8"), "--repeat", str(k)])
            row("instructions/byte, vod-43200.m3u8 read and parse in-process vs m3u8-rs (one of eleven)",
                "ours %.1f vs m3u8-rs %.1f = %.2f×" % (ours_ip, rs_ip, ours_ip / rs_ip), "<= 1×",
                "yes" if ours_ip <= rs_ip else "no")
        ir_row("vod-43200.m3u8 parse --json vs quick-m3u8, whole process", "vod-43200.m3u8",
               [S_CLI, "parse", f("vod-43200.m3u8"), "--json"], "quick-m3u8", [QUICK, f("vod-43200.m3u8")])
    ours_v = instructions([S_CLI, "--version"])
    if shutil.which("jq"):
        jq_v = instructions([shutil.which("jq"), "--version"])
        row("instructions, start-up (--version), as installed (static)", "ours %.2f M vs jq %.2f M = %.2f×" % (
            ours_v / 1e6, jq_v / 1e6, ours_v / jq_v), "<= 2×", "yes" if ours_v <= 2 * jq_v else "no")
    else:
        row("instructions, start-up (--version)", "ours %.2f M vs /bin/true %.2f M" % (
            ours_v / 1e6, instructions(["/bin/true"]) / 1e6))

# Memory of `analyze` against the size of the input, whole files (issue 36: at most 150 MiB at
# 200 MB, and at most 1.5× the 20 MB figure), for both large inputs.
SMALL_INPUTS = os.path.join(ROOT, ".build-bench", "inputs-20-40")
if MB != 20:
    if not os.path.isdir(os.path.join(SMALL_INPUTS, "fleet")):
        subprocess.run([PY, os.path.join(ROOT, "Benchmarks", "make_inputs.py"), SMALL_INPUTS, "20", "40"], check=True,
                       stdout=subprocess.DEVNULL)
    for name, what in [("metrics.jsonl", "metric dump"), ("KTVHTTPCache.log", "KTVHTTPCache log")]:
        small_rss = peak_rss([CLI, "analyze", os.path.join(SMALL_INPUTS, name)] + WHOLE)
        big_rss = peak_rss([CLI, "analyze", path(name)] + WHOLE)
        row("analyze peak RSS, %s 20 MB vs %d MB, whole files" % (what, MB),
            "%.0f MiB vs %.0f MiB = %.1f×" % (small_rss / 1024, big_rss / 1024, big_rss / small_rss),
            "<= 150 MiB, <= 1.5×", "yes" if big_rss <= 150 * 1024 and big_rss <= 1.5 * small_rss else "no")

# A daily triage (issue 36): 1 % of the bundles changed, --since-index, against a full run.
# Three runs, each its own fleet; the median share is reported with that run's line.
dailies = []
for _ in range(3):
    daily = subprocess.run(["bash", os.path.join(ROOT, "Benchmarks", "daily_run.sh"), CLI, str(BUNDLES)],
                           capture_output=True, text=True)
    if daily.returncode == 0 and daily.stdout.strip():
        line = daily.stdout.strip().splitlines()[-1]
        dailies.append((float(line.split(" % of full")[0].rsplit("= ", 1)[1]), line))
if dailies:
    share, line = sorted(dailies)[len(dailies) // 2]
    row("daily triage: --since-index with 1 %% changed vs a full run (%d bundles, median of %d)"
        % (BUNDLES, len(dailies)), line.split(": ", 1)[1], "<= 3 %", "yes" if share <= 3 else "no")

w = max(len(r[0]) for r in rows)
v = max(len(r[1]) for r in rows)
print("| %s | %s | target | met |" % ("measure".ljust(w), "value".ljust(v)))
print("| %s | %s | --- | --- |" % ("-" * w, "-" * v))
for a, b, c, d in rows:
    print("| %s | %s | %s | %s |" % (a.ljust(w), b.ljust(v), c, d))
