#!/usr/bin/env python3
"""Generates a triage directory of N user bundles from SampleLogs/ (for `playback-forensics
triage` tests and benchmarks). Each bundle is a copy of one sample bundle with its own playback
session id, so every bundle is a distinct session.

Usage: python3 Scripts/make_triage_fleet.py N OUTDIR
"""
import os
import shutil
import sys
import uuid

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleLogs")
IDS = ["6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10", "2D5C8F04-9F34-40F2-AA06-758CE4EC3643",
       "9A1E44C2-7D3B-4C55-8E21-0F6A2B9C1D77"]


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    samples = sorted(x for x in os.listdir(ROOT) if not x.endswith(".md"))
    for i in range(n):
        name = samples[i % len(samples)]
        src = os.path.join(ROOT, name)
        dst = os.path.join(out, "u%05d-%s" % (i, name))
        if os.path.isdir(src):
            new_id = str(uuid.UUID(int=i + 1)).upper()
            os.makedirs(dst, exist_ok=True)
            for f in sorted(os.listdir(src)):
                with open(os.path.join(src, f), "rb") as fh:
                    data = fh.read()
                if not f.endswith(".gz"):
                    for old in IDS:
                        data = data.replace(old.encode(), new_id.encode())
                with open(os.path.join(dst, f), "wb") as fh:
                    fh.write(data)
        else:
            shutil.copyfile(src, dst)
    print("wrote %d bundles to %s" % (n, out))


if __name__ == "__main__":
    main()
