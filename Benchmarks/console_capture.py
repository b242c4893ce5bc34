#!/usr/bin/env python3
"""A device console as `log show --style ndjson` writes it: playback-forensics against jq and grep.

    python3 Benchmarks/console_capture.py OUTDIR [EVENTS] [--runs N]

Writes OUTDIR/console.ndjson: EVENTS events (default 400,000), deterministic. Most are other
processes' chatter (SpringBoard, locationd, the app's own lines); one in 20 is the media stack
(mediaplaybackd, com.apple.coremedia), and a FairPlay failure with its NSError chain sits in the
middle. Then measures, each over the same file:

- `playback-forensics analyze console.ndjson --report json` (the whole analysis: read, sessions,
  rules, report), the release CLI as a user runs it;
- `jq -c 'select(.messageType == "Error") | .eventMessage'` (jq reads and filters every event,
  nothing more);
- `grep -c 'Error Domain='` (a byte scan: the floor).

Wall time and peak RSS (`/usr/bin/time -f "%e %M"`), median of --runs, interleaved.
"""
import json
import os
import random
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_cli  # noqa: E402

REPO = os.path.dirname(HERE)

CHATTER = [
    ("SpringBoard", "com.apple.springboard", "icon", "Icon layout changed for page %d"),
    ("locationd", "com.apple.locationd.Core", "core", "Client connection %d invalidated"),
    ("Player", "com.example.player", "ui", "Loaded the settings view %d"),
    ("kernel", "", "", "memorystatus: pid %d idle"),
]
MEDIA = [
    ("mediaplaybackd", "com.apple.coremedia", "player", "<<<< FigPlayer >>>> rate changed to 1.0 (item %d)"),
    ("mediaplaybackd", "com.apple.coremedia", "playlist", "<<<< FigStreamPlayer >>>> reloaded media playlist (%d segments)"),
    ("Player", "com.example.player", "drm", "AVContentKeySession: content key request %d"),
]
CHAIN = ('content key request failed, giving up: Error Domain=AVFoundationErrorDomain Code=-11800 "The operation '
         'could not be completed" UserInfo={NSLocalizedFailureReason=An unknown error occurred (-42669), '
         'NSUnderlyingError=0x283d8c6c0 {Error Domain=NSOSStatusErrorDomain Code=-42669 "(null)"}}')


def generate(out, events):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "console.ndjson")
    rng = random.Random(11)
    with open(path, "w") as f:
        for i in range(events):
            media = i % 20 == 0
            process, subsystem, category, text = rng.choice(MEDIA if media else CHATTER)
            message = text % i
            kind = "Default"
            if i == events // 2:
                process, subsystem, category, message, kind = "Player", "com.example.player", "drm", CHAIN, "Error"
            seconds = i * 0.05
            stamp = "2026-11-21 %02d:%02d:%09.6f+0100" % (10 + int(seconds // 3600), int(seconds // 60) % 60,
                                                          seconds % 60)
            f.write(json.dumps({
                "traceID": 78134079258628 + i, "eventMessage": message, "eventType": "logEvent",
                "subsystem": subsystem, "category": category, "timestamp": stamp,
                "processImagePath": "/usr/libexec/" + process, "processID": 400 + len(process),
                "messageType": kind, "timezoneName": "", "threadID": 17657416,
            }, separators=(",", ":")) + "\n")
        f.write('{"count":%d,"finished":1}\n' % events)
    return path


def timed(cmd, shell=False):
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + (["bash", "-c", cmd] if shell else cmd),
                       capture_output=True, text=True)
    if p.returncode not in (0, 1, 2):
        sys.exit("failed: %s\n%s" % (cmd, p.stderr[-2000:]))
    wall, peak = p.stderr.strip().splitlines()[-1].split()
    return float(wall), int(peak)


def main():
    out, events, runs = bench_cli.arguments(".build-bench/console", "events", int, 400_000)
    path = generate(out, events)
    tool = bench_cli.binary(REPO)
    commands = [
        ("playback-forensics", "analyze console.ndjson (whole analysis, JSON report)",
         ([tool, "analyze", path, "--report", "json", "--output", os.path.join(out, "report.json")], False)),
        ("jq %s" % subprocess.run(["jq", "--version"], capture_output=True, text=True).stdout.strip(),
         "select(.messageType == \"Error\") \\| .eventMessage", ("jq -c 'select(.messageType == \"Error\") | "
                                                              ".eventMessage' %s > /dev/null" % path, True)),
        ("grep -c", "'Error Domain=' (byte scan)", ("grep -c 'Error Domain=' %s" % path, True)),
    ]
    results = {name: [] for name, _, _ in commands}
    for _ in range(runs):  # interleaved, so a noisy moment hits every tool
        for name, _, (cmd, shell) in commands:
            results[name].append(timed(cmd, shell))
    size = os.path.getsize(path)
    print("\n%d events, %.0f MiB; median of %d interleaved runs\n" % (events, size / (1 << 20), runs))
    print("| tool | what | wall s | peak RSS MiB | vs ours |")
    print("| --- | --- | ---: | ---: | ---: |")
    ours = statistics.median(w for w, _ in results["playback-forensics"])
    for name, what, _ in commands:
        wall = statistics.median(w for w, _ in results[name])
        peak = max(p for _, p in results[name]) / 1024
        print("| %s | %s | %.2f | %.0f | %.2f× |" % (name, what, wall, peak, wall / ours if ours else 0))


if __name__ == "__main__":
    main()
