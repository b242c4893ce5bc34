#!/usr/bin/env python3
"""Fleet triage on Apache Spark: fans a fleet out as `triage --shard K/N` tasks and merges their
outputs with `triage merge` — what one `triage` run writes, from N tasks on a cluster.

    python3 Scripts/triage_spark.py FLEET OUTPUT [--shards N] [--work DIR] [--tool PATH]
                                    [--master URL] [--incremental] [-- TRIAGE-OPTIONS…]

  FLEET        the directory of bundles; every executor must see it at the same path
  OUTPUT       where the merged index.md, triage.json, triage.sqlite and bundles/ go
  --shards N   tasks (default: 4 per executor core Spark reports, at least 1)
  --work DIR   where shard outputs go (default: OUTPUT.shards); on a cluster a shared file system
  --tool PATH  the playback-forensics binary on every executor (default: .build/release/…)
  --master     Spark master (default: local[*] when the script is run with python3, or whatever
               spark-submit was given)
  --incremental  keep shard outputs in --work between runs and give each task --since-index:
               a daily run analyses only the bundles that are new in each shard
  after --, options passed to every shard run (--config FILE, --jobs 1, …)

Each task is one process on one executor core by default (`--jobs` 1); the shards are
deterministic (a bundle's shard depends only on its name), so a failed task is simply run again.
Needs `pyspark` (pip) and Java 17.
"""
import os
import subprocess
import sys
import time


def parse(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    opts = {"--shards": None, "--work": None, "--tool": None, "--master": None}
    flags = set()
    positional = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in opts:
            opts[a] = argv[i + 1]
            i += 2
        elif a == "--incremental":
            flags.add(a)
            i += 1
        else:
            positional.append(a)
            i += 1
    if len(positional) != 2:
        sys.exit(__doc__)
    return positional, opts, flags, extra


def run_shard(args):
    """One Spark task: `triage FLEET --output WORK/shard-K --shard K/N`, its exit code and last line."""
    tool, fleet, work, k, n, incremental, extra = args
    out = os.path.join(work, "shard-%04d" % k)
    cmd = [tool, "triage", fleet, "--output", out, "--shard", "%d/%d" % (k, n)] + extra
    if incremental and os.path.exists(os.path.join(out, "triage.sqlite")):
        cmd.append("--since-index")
    else:
        cmd.append("--force")
    started = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    last = (r.stderr.strip().splitlines() or [""])[-1]
    return k, r.returncode, round(time.time() - started, 2), last


def main():
    (fleet, output), opts, flags, extra = parse(sys.argv[1:])
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    tool = os.path.abspath(opts["--tool"] or os.path.join(root, ".build", "release", "playback-forensics"))
    fleet, output = os.path.abspath(fleet), os.path.abspath(output)
    work = os.path.abspath(opts["--work"] or output + ".shards")
    os.makedirs(work, exist_ok=True)

    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("playback-forensics triage")
    if opts["--master"]:
        builder = builder.master(opts["--master"])
    elif "SPARK_MASTER" not in os.environ and "spark.master" not in " ".join(sys.argv):
        builder = builder.master("local[*]")
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    n = int(opts["--shards"] or max(1, 4 * sc.defaultParallelism))
    # A shard run analyses its bundles on one core: Spark schedules the cores.
    if "--jobs" not in extra:
        extra = extra + ["--jobs", "1"]
    started = time.time()
    tasks = [(tool, fleet, work, k, n, "--incremental" in flags, extra) for k in range(1, n + 1)]
    results = sc.parallelize(tasks, n).map(run_shard).collect()
    spark.stop()
    failed = [r for r in results if r[1] not in (0, 2)]
    for k, code, seconds, last in sorted(results):
        print("shard %d/%d: exit %d in %.2f s: %s" % (k, n, code, seconds, last))
    if failed:
        sys.exit("%d shard task(s) failed: %s" % (len(failed), ", ".join(str(r[0]) for r in failed)))
    shards = [os.path.join(work, "shard-%04d" % k) for k in range(1, n + 1)]
    merge = subprocess.run([tool, "triage", "merge"] + shards + ["--output", output, "--force"],
                           capture_output=True, text=True)
    sys.stderr.write(merge.stderr)
    print("spark triage: %d shards in %.2f s" % (n, time.time() - started))
    sys.exit(merge.returncode)


if __name__ == "__main__":
    main()
