"""The command line the benchmark scripts share: `OUTDIR [SIZE] [--runs N]`."""
import argparse
import os
import subprocess


def arguments(default_out, size_name, size_type, default_size):
    """(absolute OUTDIR, SIZE, runs) from the command line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir", nargs="?", default=default_out)
    parser.add_argument(size_name, nargs="?", type=size_type, default=default_size)
    parser.add_argument("--runs", type=int, default=3)
    a = parser.parse_args()
    return os.path.abspath(a.outdir), getattr(a, size_name), a.runs


def binary(repo):
    """The playback-forensics to measure: $PF_BIN (run.sh passes the installed static build), else
    a release build of this checkout."""
    if os.environ.get("PF_BIN"):
        return os.environ["PF_BIN"]
    subprocess.run(["swift", "build", "-c", "release", "--product", "playback-forensics"], cwd=repo, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(repo, ".build", "release", "playback-forensics")
