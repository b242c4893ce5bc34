#!/usr/bin/env python3
"""A day of CloudFront standard logs against one bundle: playback-forensics, DuckDB and grep.

    python3 Benchmarks/cdn_day.py OUTDIR [GIB] [--runs N]

Writes OUTDIR/day/ (24 hourly gzip files, GIB gibibytes decompressed in all, default 1.0; every
viewer's rows, the SampleLogs/cdn-slow-origin session's 20 rows inside hour 10) and
OUTDIR/bundle/ (that session's metric events), then measures, each over the same files:

- `playback-forensics analyze bundle --cdn-logs day/ --report json` (the whole analysis: the
  bundle, the day read through its keys, the join, the rules, the report);
- DuckDB `read_csv` of the same gzip files: a full count, and the rows for the bundle's paths;
- `zcat day/*.gz | grep -c` of the session's path prefix.

Wall time and peak RSS (`/usr/bin/time -f "%e %M"`), median of --runs. DuckDB is installed from
PyPI if absent. The generator is deterministic (same GIB, same bytes).
"""
import gzip
import os
import random
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_cli  # noqa: E402

REPO = os.path.dirname(HERE)
SAMPLE = os.path.join(REPO, "SampleLogs", "cdn-slow-origin")
FIELDS = (
    "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) "
    "cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol "
    "cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version "
    "fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type "
    "sc-content-len sc-range-start sc-range-end"
)
POPS = ["FRA56-P3", "AMS1-C1", "LHR61-P1", "CDG50-C2", "IAD89-C3", "NRT57-P2"]
UA = "AppleCoreMedia/1.0.0.22B83%20(iPhone;%20U;%20CPU%20OS%2018_1%20like%20Mac%20OS%20X;%20en_us)"


def generate(out, gib):
    day = os.path.join(out, "day")
    bundle = os.path.join(out, "bundle")
    os.makedirs(day, exist_ok=True)
    os.makedirs(bundle, exist_ok=True)
    with open(os.path.join(SAMPLE, "metrics.jsonl"), "rb") as f, open(os.path.join(bundle, "metrics.jsonl"), "wb") as g:
        g.write(f.read())
    sample_gz = [n for n in os.listdir(os.path.join(SAMPLE, "cloudfront")) if n.endswith(".gz")][0]
    with gzip.open(os.path.join(SAMPLE, "cloudfront", sample_gz), "rt") as f:
        own = [l for l in f.read().splitlines() if l and not l.startswith("#")]
    target = int(gib * (1 << 30))
    per_hour = target // 24
    rng = random.Random(7)
    n = 0
    for hour in range(24):
        path = os.path.join(day, "E2QWRUHEXAMPLE.2026-11-21-%02d.%08x.gz" % (hour, hour))
        written = 0
        lines = ["#Version: 1.0", "#Fields: " + FIELDS]
        with gzip.open(path, "wt", compresslevel=1) as g:
            g.write("\n".join(lines) + "\n")
            if hour == 10:
                g.write("\n".join(own) + "\n")
            chunk = []
            while written < per_hour:
                n += 1
                title = rng.randrange(400)
                seg = rng.randrange(1, 900)
                status, res = ("200", "Hit") if rng.random() < 0.97 else ("502", "Error")
                row = "\t".join([
                    "2026-11-21", "%02d:%02d:%02d" % (hour, rng.randrange(60), rng.randrange(60)),
                    POPS[n % len(POPS)], str(rng.randrange(100000, 2000000)),
                    "203.0.%d.%d" % (rng.randrange(256), rng.randrange(256)), "GET", "d111111abcdef8.cloudfront.net",
                    "/vod/t%d/v%d/s%d.m4s" % (title, 1 + title % 8, seg), status, "-", UA, "-", "-", res,
                    "%016x%016xAbCd==" % (n, rng.getrandbits(64)), "video.example.com", "https", "412",
                    "%.3f" % rng.uniform(0.01, 2.0), "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", res, "HTTP/2.0", "-",
                    "-", str(rng.randrange(1024, 65535)), "%.3f" % rng.uniform(0.001, 0.2), res, "video/mp4",
                    "1000000", "-", "-",
                ])
                chunk.append(row)
                written += len(row) + 1
                if len(chunk) >= 5000:
                    g.write("\n".join(chunk) + "\n")
                    chunk = []
            if chunk:
                g.write("\n".join(chunk) + "\n")
    return day, bundle, n


def timed(cmd, runs, shell=False):
    walls, peaks = [], []
    out = ""
    for _ in range(runs):
        p = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M"] + (["bash", "-c", cmd] if shell else cmd),
            capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit("failed: %s\n%s" % (cmd, p.stderr[-2000:]))
        wall, peak = p.stderr.strip().splitlines()[-1].split()
        walls.append(float(wall))
        peaks.append(int(peak))
        out = p.stdout
    return statistics.median(walls), max(peaks) / 1024, out


def main():
    out, gib, runs = bench_cli.arguments(".build-bench/cdn", "gib", float, 1.0)
    day, bundle, rows = generate(out, gib)
    raw = sum(os.path.getsize(os.path.join(day, f)) for f in os.listdir(day))
    try:
        import duckdb  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "duckdb"], check=True)
    tool = bench_cli.binary(REPO)
    report = os.path.join(out, "report.json")
    ours = timed([tool, "analyze", bundle, "--cdn-logs", day, "--report", "json", "--output", report,
                  "--max-decompressed-size", "4G"], runs)
    # The columns given, no sniffing: DuckDB's sniffer run over 24 files took 40 times as long.
    columns = "{" + ", ".join("'c%d': 'VARCHAR'" % i for i in range(33)) + "}"
    read = ("read_csv('%s/*.gz', delim='\\t', skip=2, header=false, auto_detect=false, quote='', escape='', "
            "columns=%s)" % (day, columns))
    count_q = "import duckdb; print(duckdb.sql(\"select count(*) from %s\").fetchall())" % read.replace("'", "'")
    paths_q = ("import duckdb; print(duckdb.sql(\"select count(*) from %s where c7 like '/vod/film/%%'\").fetchall())"
               % read)
    duck_all = timed([sys.executable, "-c", count_q], runs)
    duck_paths = timed([sys.executable, "-c", paths_q], runs)
    grep = timed("zcat %s/*.gz | grep -c /vod/film/" % day, runs, shell=True)
    zcat = timed("zcat %s/*.gz > /dev/null" % day, runs, shell=True)
    print("\n%d rows, %.2f GiB decompressed, %.0f MiB gzip, 24 hourly files; median of %d runs\n"
          % (rows, gib, raw / (1 << 20), runs))
    print("| tool | what | wall s | peak RSS MiB | vs ours |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, what, r in [
        ("playback-forensics", "analyze bundle --cdn-logs day/ (whole analysis, JSON report)", ours),
        ("DuckDB %s" % __import__("duckdb").__version__, "read_csv count(*)", duck_all),
        ("DuckDB", "read_csv, rows for the session's title", duck_paths),
        ("zcat \\| grep -c", "rows for the session's title", grep),
        ("zcat > /dev/null", "decompression alone", zcat),
    ]:
        print("| %s | %s | %.2f | %.0f | %.2f× |" % (name, what, r[0], r[1], r[0] / ours[0] if ours[0] else 0))


if __name__ == "__main__":
    main()
