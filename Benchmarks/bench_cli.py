"""The command line the benchmark scripts share: `OUTDIR [SIZE] [--runs N]`."""
import argparse
import os


def arguments(default_out, size_name, size_type, default_size):
    """(absolute OUTDIR, SIZE, runs) from the command line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir", nargs="?", default=default_out)
    parser.add_argument(size_name, nargs="?", type=size_type, default=default_size)
    parser.add_argument("--runs", type=int, default=3)
    a = parser.parse_args()
    return os.path.abspath(a.outdir), getattr(a, size_name), a.runs
