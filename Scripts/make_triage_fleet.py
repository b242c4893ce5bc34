#!/usr/bin/env python3
"""Generates a triage directory of N user bundles from SampleLogs/ (for `playback-forensics
triage` tests and benchmarks).

    python3 Scripts/make_triage_fleet.py N OUTDIR
        Each bundle is a copy of one sample bundle, in turn, with its own playback session id.

    python3 Scripts/make_triage_fleet.py N OUTDIR --problems --truth TRUTH.json [--seed S] [--first K]
        A fleet with a known mix of injected problems. Each bundle is one single-session story
        (see SampleLogs/README.md), chosen by weight, with the CDN, key or origin host it fails
        on chosen from a few per story, and its own session id; a few stray files and empty folders
        sit beside them. TRUTH.json lists every problem group the fleet must show (its key as
        `triage.json` writes it) with the number of sessions it affects, and the session count.
        `--first K` numbers the bundles from K (to grow a fleet by new bundles with the same seed).
"""
import json
import os
import random
import shutil
import sys
import uuid

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleLogs")
IDS = ["6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10", "2D5C8F04-9F34-40F2-AA06-758CE4EC3643",
       "9A1E44C2-7D3B-4C55-8E21-0F6A2B9C1D77", "4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B5A"]

# The stories with what each one injects: the host the template fails on (replaced by one of
# `hosts`), and the problem groups it shows, `{host}` standing for the chosen host. What a story
# injects is its README line: 404s on one variant with a down-switch and a stall; a slow FairPlay
# key at startup; an origin 404 and an unplayable content type behind KTVHTTPCache.
STORIES = [
    {"sample": "access-error-logs-only", "weight": 4, "host": "edge3.cdn.example.org",
     "hosts": ["edge1.cdn-a.example", "edge2.cdn-b.example", "edge9.cdn-c.example"],
     # The down-switch and the stall are symptoms of the 404s: one problem.
     "problems": ["segment-errors host={host} status=HTTP 404"]},
    {"sample": "slow-key-startup", "weight": 3, "host": "keys.example.com",
     "hosts": ["keys-eu.example", "keys-us.example"],
     "problems": ["slow-startup", "missing-session-key", "slow-key-fetch host={host}"]},
    {"sample": "proxy-octet-stream", "weight": 2, "host": "media.example.com",
     "hosts": ["origin-1.example", "origin-2.example"],
     "problems": ["proxy-unplayable-content-type host={host}", "playback-failed",
                  "proxy-origin-errors host={host} status=HTTP 404", "proxy-unreachable"]},
    {"sample": "clean-session.zip", "weight": 3, "host": None, "hosts": [None], "problems": []},
]


def copy_story(story, dst, host, new_id):
    src = os.path.join(ROOT, story["sample"])
    if not os.path.isdir(src):
        shutil.copyfile(src, dst)
        return
    # A bundle's subfolders too (cdn-slow-origin keeps its CDN logs in cloudfront/).
    for folder, _, files in os.walk(src):
        target = os.path.join(dst, os.path.relpath(folder, src))
        os.makedirs(target, exist_ok=True)
        for f in sorted(files):
            with open(os.path.join(folder, f), "rb") as fh:
                data = fh.read()
            if not f.endswith(".gz"):
                for old in IDS:
                    data = data.replace(old.encode(), new_id.encode())
                if host:
                    data = data.replace(story["host"].encode(), host.encode())
            with open(os.path.join(target, f), "wb") as fh:
                fh.write(data)


def problems_fleet(n, out, truth_path, seed, first):
    rng = random.Random(seed)
    # Draw the whole sequence up to first + n, so that a fleet grown with --first keeps the
    # bundles it had and adds new ones.
    picks = []
    for _ in range(first + n):
        story = rng.choices(STORIES, weights=[s["weight"] for s in STORIES])[0]
        picks.append((story, rng.choice(story["hosts"])))
    truth = {}
    sessions = 0
    for i in range(first, first + n):
        story, host = picks[i]
        name = "b%05d-%s" % (i, story["sample"])
        copy_story(story, os.path.join(out, name), host, str(uuid.UUID(int=i + 1)).upper())
        sessions += 1
        for p in story["problems"]:
            key = p.format(host=host)
            truth[key] = truth.get(key, 0) + 1
    # Beside the bundles: a stray note (skipped) and, once, an empty folder (unreadable); neither
    # has a session or a problem.
    if first == 0:
        with open(os.path.join(out, "README.txt"), "w") as fh:
            fh.write("Bundles exported from the support queue.\n")
        os.makedirs(os.path.join(out, "empty-upload"), exist_ok=True)
    if truth_path:
        old = {}
        if first > 0 and os.path.exists(truth_path):
            with open(truth_path) as fh:
                old = json.load(fh)
        for k, v in old.get("problems", {}).items():
            truth[k] = truth.get(k, 0) + v
        sessions += old.get("sessions", 0)
        with open(truth_path, "w") as fh:
            json.dump({"sessions": sessions, "problems": dict(sorted(truth.items()))}, fh, indent=1, sort_keys=True)
            fh.write("\n")


def main():
    args = sys.argv[1:]
    n, out = int(args[0]), args[1]
    os.makedirs(out, exist_ok=True)
    if "--problems" in args:
        opt = lambda name, default: args[args.index(name) + 1] if name in args else default
        problems_fleet(n, out, opt("--truth", None), int(opt("--seed", "1")), int(opt("--first", "0")))
        print("wrote %d bundles to %s" % (n, out))
        return
    samples = sorted(x for x in os.listdir(ROOT) if not x.endswith(".md"))
    for i in range(n):
        name = samples[i % len(samples)]
        story = {"sample": name, "host": None}
        copy_story(story, os.path.join(out, "u%05d-%s" % (i, name)), None, str(uuid.UUID(int=i + 1)).upper())
    print("wrote %d bundles to %s" % (n, out))


if __name__ == "__main__":
    main()
