#!/usr/bin/env python3
"""Hostile input, round three (issue 30): the configuration, where output goes, the triage index,
secrets in new shapes and reports of any size — one case per defect of the issue, and the cases
that held then, kept as regressions. Runs with the same rules as Scripts/hostile_bundles.py (every
run ends by itself with exit status 0, 1 or 2 — 64 where a usage error is the right answer —
within 10 s and 1 GiB, no planted secret in any output, no terminal escape).

Usage: python3 Scripts/hostile_round3.py [BINARY] [--keep] [--only NAME...]
Exit status: 0 when every case holds, 1 otherwise (the failures are listed).
"""
import gzip
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import random

import hostile_bundles as hb
from hostile_bundles import ACCESS_HEAD, ERROR_HEAD, GUID, access_row, expect, new_bundle, new_fleet, run

ROOT = hb.ROOT
SAMPLE = os.path.join(ROOT, "SampleLogs")


def fail(message):
    hb.failures.append(message)


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def good_bundle(name):
    """A bundle with a real session (the neighbour: metric events of a slow key startup)."""
    return new_bundle(name)


def sample_fleet(name, count=3):
    d = new_fleet(name)
    for n in [n for n in sorted(os.listdir(SAMPLE)) if os.path.isdir(os.path.join(SAMPLE, n))][:count]:
        shutil.copytree(os.path.join(SAMPLE, n), os.path.join(d, n))
    return d


# ---------------------------------------------------------------- configuration


def config_file(name, text):
    path = os.path.join(hb.WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def case_config_alias_bomb():
    # Nine levels of nine aliases: a few hundred bytes that expand to 9^9 scalars.
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 10):
        lines.append("a%d: &a%d [%s]" % (i, i, ",".join(["*a%d" % (i - 1)] * 9)))
    path = config_file("bomb.yml", "\n".join(lines) + "\n")
    b = good_bundle("config-bomb")
    rc, _, err = run("config: alias bomb", ["analyze", b, "--config", path], statuses=(64,))
    expect("config: alias bomb", "bomb.yml:1" in err and "anchor" in err, "no file:line and reason: %r" % err[-300:])


def case_config_deep_nesting():
    b = good_bundle("config-deep")
    for name, text in (("deep-flow.yml", "[" * 200000 + "]" * 200000),
                       ("deep-block.yml", "".join(" " * i + "k%d:\n" % i for i in range(600)))):
        path = config_file(name, text)
        rc, _, err = run("config: %s" % name, ["analyze", b, "--config", path], statuses=(64,))
        expect("config: %s" % name, "nested deeper" in err and name in err, "not refused by depth: %r" % err[-300:])


def case_config_duplicate_keys():
    b = good_bundle("config-dup")
    path = config_file("dup.yml", "rules:\n  stall:\n    severity: error\n  stall:\n    severity: info\n")
    rc, _, err = run("config: duplicate keys", ["analyze", b, "--config", path], statuses=(64,))
    expect("config: duplicate keys", "dup.yml:4" in err and "duplicate key 'stall'" in err, "not refused: %r" % err[-300:])
    path = config_file("badkey.yml", "rules:\n  stall:\n    look-back-seconds: soon\n")
    rc, _, err = run("config: bad value names line and key", ["analyze", b, "--config", path], statuses=(64,))
    expect("config: bad value", "badkey.yml:3" in err and "look-back-seconds" in err, "no line/key: %r" % err[-300:])


def case_config_not_a_file():
    b = good_bundle("config-dev")
    big = config_file("big.yml", "# " + "x" * (2 << 20) + "\n")
    for path in ("/dev/zero", big, os.path.join(hb.WORK, "missing.yml"), hb.WORK):
        run("config: %s" % os.path.basename(path), ["analyze", b, "--config", path], statuses=(64,))
    fifo = os.path.join(hb.WORK, "config.fifo")
    os.mkfifo(fifo)
    run("config: a FIFO", ["analyze", b, "--config", fifo], statuses=(64,))


# ---------------------------------------------------------------- writes


def case_write_full_device():
    b = os.path.join(SAMPLE, "cdn-404-stall")
    for argv in (["analyze", b], ["analyze", b, "--report", "html"], ["timeline", b], ["parse", b],
                 ["parse", os.path.join(b, "metrics.jsonl.gz")], ["formats"], ["rules"]):
        rc, _, err = run("write: %s > /dev/full" % argv[0], argv, stdout_path="/dev/full", statuses=(1,))
        expect("write: %s > /dev/full" % argv[0], err.count("\n") == 1 and "standard output" in err,
               "not one sentence: %r" % err[-300:])
    fleet = sample_fleet("write-fleet", 2)
    out = os.path.join(hb.WORK, "write-fleet-out")
    run("write: triage --json-lines > /dev/full", ["triage", fleet, "--output", out, "--json-lines"],
        stdout_path="/dev/full", statuses=(1,))
    rc, _, err = run("write: --output /dev/full", ["analyze", b, "--output", "/dev/full"], statuses=(1,))
    expect("write: --output /dev/full", "WriteError" not in err and "No space left" in err, "message: %r" % err)


def case_write_closed_and_broken_pipe():
    b = os.path.join(SAMPLE, "cdn-404-stall")
    run("write: stdout closed", ["analyze", b], preexec_fn=lambda: os.close(1), statuses=(1,))
    run("write: stdout and stderr closed", ["analyze", b], preexec_fn=lambda: (os.close(1), os.close(2)),
        statuses=(1,))
    for argv in (["timeline", b], ["analyze", b], ["parse", b, "--json"]):
        # A reader that goes away at once, SIGPIPE ignored (as under many supervisors).
        def ignore():
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        p = subprocess.Popen([hb.BIN] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ignore)
        p.stdout.close()
        err = p.stderr.read()
        p.wait(timeout=60)
        expect("write: broken pipe %s" % argv[0], p.returncode == 1, "exit status %d" % p.returncode)
        expect("write: broken pipe %s" % argv[0], b"Broken pipe" in err, "message: %r" % err[-200:])


def case_output_dash_is_stdout():
    b = os.path.join(SAMPLE, "cdn-404-stall")
    cwd = os.path.join(hb.WORK, "dash")
    os.makedirs(cwd, exist_ok=True)
    rc, out, _ = run("output: --output -", ["analyze", b, "--output", "-"], cwd=cwd)
    expect("output: --output -", out.startswith("# Playback forensics report"), "report not on stdout")
    expect("output: --output -", not os.path.exists(os.path.join(cwd, "-")), "a file named - was written")


# ---------------------------------------------------------------- secrets in new shapes

SHAPES = [
    "https://storage.googleapis.com/b/v/s%d.ts?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=PLANTEDsa%%40p.iam.gserviceaccount.com%%2F20261121%%2Fauto&X-Goog-Signature=PLANTEDabc",
    "https://acct.blob.core.windows.net/c/s%d.ts?sv=2022-11-02&sp=PLANTEDr&se=PLANTED2026-12-01&sig=PLANTED%%2Bab%%3D",
    "https://a.akamaihd.net/i/s%d.ts?__gda__=PLANTED1700000000_abcdef",
    "https://a.akamaihd.net/i/s%d.ts?hdnea=st=1~exp=2~acl=/i/*~hmac=PLANTEDdeadbeef",
    "https://cdn.example.com/v/s%d.ts?md5=PLANTEDa&hash=PLANTEDb&lsig=PLANTEDc&verify=1-PLANTEDd&secure=PLANTEDe",
    "https://cdn.example.com/v/s%d.ts?token[]=PLANTEDabc&private_key=PLANTEDk&license_key=PLANTEDl",
    "https://cdn.example.com/token/PLANTEDabc/v/s%d.ts",
    "https://app.example.com/go/s%d.ts?redirect=https%%253A%%252F%%252Fcdn%%252Fa.m3u8%%253FSignature%%253DPLANTEDabc",
    "https://ads.example.com/v/s%d.ts?idfa=PLANTED-6D92078A&email=PLANTEDjane%%40example.com",
]


def case_secrets_new_shapes():
    b = new_bundle("secrets3", neighbour=False)
    entries = []
    for i, shape in enumerate(SHAPES):
        entries.append({"startedDateTime": hb.iso(i), "time": 50,
                        "request": {"method": "GET", "url": shape % i,
                                    "headers": [{"name": "X-Forwarded-For", "value": "PLANTED198.51.100.23"},
                                                {"name": "X-Playback-Session-Id", "value": GUID}]},
                        "response": {"status": 403, "headers": [{"name": "CF-Connecting-IP", "value": "PLANTED2001:db8::1"}],
                                     "content": {"size": 0, "mimeType": "video/mp2t"}}})
    open(os.path.join(b, "capture.har"), "w").write(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    rows = "".join(
        "2026/11/21 10:00:0%d.000 %s %s 203.0.113.7 -12660 \"CoreMediaErrorDomain\" \"HTTP 403: sent Bearer PLANTEDabcdefgh123 for contact PLANTEDjohn.doe@example.com\" -\n"
        % (i, SHAPES[i] % i, GUID) for i in range(len(SHAPES)))
    open(os.path.join(b, "error.log"), "w").write(ERROR_HEAD + rows)
    for argv in (["analyze", b], ["analyze", b, "--report", "json"], ["analyze", b, "--report", "html"],
                 ["timeline", b], ["timeline", b, "--json"], ["parse", b], ["parse", b, "--json"]):
        run("secrets3: %s" % " ".join(argv[:1] + argv[2:]), argv)
    fleet = new_fleet("secrets3-fleet")
    shutil.copytree(b, os.path.join(fleet, "shapes"))
    out = os.path.join(hb.WORK, "secrets3-out")
    run("secrets3: triage", ["triage", fleet, "--output", out, "--json-lines"],
        files_to_check=[os.path.join(out, n) for n in ("index.md", "index.html", "triage.json")])
    index = open(os.path.join(out, "triage.sqlite"), "rb").read()
    expect("secrets3: triage index", b"PLANTED" not in index, "a planted secret is in triage.sqlite")
    for name in os.listdir(os.path.join(out, "bundles")):
        problems = []
        hb.check_output_text(open(os.path.join(out, "bundles", name), "rb").read(), problems)
        for p in problems:
            fail("secrets3: triage report %s: %s" % (name, p))


# ---------------------------------------------------------------- reports of any size


def case_report_100k_sessions():
    b = new_bundle("many-sessions", neighbour=False)
    rnd = random.Random(1)
    rows = []
    for i in range(100000):
        g = str(uuid.UUID(int=rnd.getrandbits(128))).upper()
        rows.append(access_row(i, guid=g, stalls=str(i % 3)))
    with gzip.open(os.path.join(b, "access.log.gz"), "wt") as f:
        f.write(ACCESS_HEAD + "".join(rows))
    for report in ("html", "markdown", "json"):
        rc, out, _ = run("report: 100,000 sessions as %s" % report, ["analyze", b, "--report", report])
        expect("report: 100,000 sessions as %s" % report, len(out) < 64 << 20, "%d bytes" % len(out))
        if report == "json":
            doc = json.loads(out)
            s = doc.get("sessions_summarised") or {}
            expect("report: json summary", s.get("total") == 100000 and s.get("in_full") + s.get("left_out") == 100000,
                   "sessions_summarised: %r" % {k: v for k, v in s.items() if k != "left_out_ids"})
        if report == "markdown":
            expect("report: markdown summary", "## Other sessions" in out and "100000 sessions" in out,
                   "no summary of the sessions left out")


# ---------------------------------------------------------------- triage confined to DIR and OUT


def triage_out(name):
    return os.path.join(hb.WORK, name)


def case_triage_link_out_of_dir():
    fleet = sample_fleet("link-fleet", 2)
    os.symlink("/etc", os.path.join(fleet, "etc-link"))
    outside = os.path.join(hb.WORK, "outside-bundle")
    shutil.copytree(os.path.join(SAMPLE, "cdn-404-stall"), outside)
    os.symlink(outside, os.path.join(fleet, "outside-link"))
    os.symlink(os.path.join(fleet, sorted(os.listdir(fleet))[0]), os.path.join(fleet, "inside-link"))
    out = triage_out("link-out")
    run("triage: links out of DIR", ["triage", fleet, "--output", out])
    doc = json.load(open(os.path.join(out, "triage.json")))
    refused = {x["name"]: x.get("error") or "" for x in doc["bundles"]}
    for name in ("etc-link", "outside-link"):
        expect("triage: link %s" % name, "refused" in refused.get(name, ""), "not refused: %r" % refused.get(name))
    expect("triage: a link inside DIR", not refused.get("inside-link"), "refused: %r" % refused.get("inside-link"))
    expect("triage: /etc not read", "passwd" not in open(os.path.join(out, "index.md")).read(), "/etc was read")


def case_triage_out_links():
    fleet = sample_fleet("outlink-fleet", 2)
    out = triage_out("outlink-out")
    run("triage: first run", ["triage", fleet, "--output", out])
    # bundles/ replaced by a link to another directory.
    victim = os.path.join(hb.WORK, "victim-dir")
    os.makedirs(victim)
    open(os.path.join(victim, "keep.md"), "w").write("untouched")
    shutil.rmtree(os.path.join(out, "bundles"))
    os.symlink(victim, os.path.join(out, "bundles"))
    for flags in (["--since-index"], ["--force"]):
        run("triage: OUT/bundles is a link (%s)" % flags[0], ["triage", fleet, "--output", out] + flags, statuses=(1,))
        expect("triage: OUT/bundles link", os.listdir(victim) == ["keep.md"], "wrote or deleted through the link: %r" % os.listdir(victim))
    os.unlink(os.path.join(out, "bundles"))
    os.makedirs(os.path.join(out, "bundles"))
    # triage.sqlite replaced by a link to another database.
    other = os.path.join(hb.WORK, "other.sqlite")
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE precious (x)")
    con.execute("INSERT INTO precious VALUES (42)")
    con.commit()
    con.close()
    before = sha(other)
    os.unlink(os.path.join(out, "triage.sqlite"))
    os.symlink(other, os.path.join(out, "triage.sqlite"))
    for flags in (["--since-index"], ["--force"]):
        run("triage: OUT/triage.sqlite is a link (%s)" % flags[0], ["triage", fleet, "--output", out] + flags,
            statuses=(1,))
        expect("triage: index link", sha(other) == before, "the linked database was rewritten")


def case_triage_planted_trigger():
    fleet = sample_fleet("trigger-fleet", 2)
    out = triage_out("trigger-out")
    run("triage: first run", ["triage", fleet, "--output", out])
    con = sqlite3.connect(os.path.join(out, "triage.sqlite"))
    con.execute("""CREATE TRIGGER forge AFTER INSERT ON bundles BEGIN
        INSERT INTO bundles (file, name, content_hash, analyzer, error, skipped, incomplete, input_problems, session_count)
        VALUES ('FORGED' || new.file, 'FORGED-BUNDLE', 'x', new.analyzer, NULL, 0, NULL, 0, 0); END""")
    con.execute("CREATE VIEW forged_view AS SELECT 'FORGED-VIEW' AS name")
    con.commit()
    con.close()
    # A changed bundle makes the run insert rows.
    open(os.path.join(fleet, "new.log"), "w").write(ACCESS_HEAD + "".join(access_row(i) for i in range(3)))
    run("triage: --since-index over a planted trigger", ["triage", fleet, "--output", out, "--since-index"])
    for name in ("index.md", "triage.json", "index.html"):
        expect("triage: trigger", "FORGED" not in open(os.path.join(out, name)).read(), "a forged row reached %s" % name)
    con = sqlite3.connect(os.path.join(out, "triage.sqlite"))
    objects = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")]
    forged = con.execute("SELECT count(*) FROM bundles WHERE name LIKE 'FORGED%'").fetchone()[0]
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    expect("triage: trigger", not objects, "the index still carries %r" % objects)
    expect("triage: trigger", forged == 0, "%d forged bundle rows" % forged)
    expect("triage: trigger", ok == "ok", "integrity_check: %s" % ok)
    # A view standing in for a table is refused.
    con = sqlite3.connect(os.path.join(out, "triage.sqlite"))
    con.execute("ALTER TABLE evidence RENAME TO evidence_old")
    con.execute("CREATE VIEW evidence AS SELECT * FROM evidence_old")
    con.commit()
    con.close()
    rc, _, err = run("triage: a view in place of a table", ["triage", fleet, "--output", out, "--since-index"],
                     statuses=(1,))
    expect("triage: view", "not the table" in err, "message: %r" % err[-300:])


def case_triage_missing_report_rebuilt():
    fleet = sample_fleet("missing-fleet", 2)
    out = triage_out("missing-out")
    run("triage: first run", ["triage", fleet, "--output", out])
    reports = sorted(os.listdir(os.path.join(out, "bundles")))
    victim = os.path.join(out, "bundles", reports[0])
    os.unlink(victim)
    run("triage: --since-index after a report was deleted", ["triage", fleet, "--output", out, "--since-index"])
    expect("triage: missing report", os.path.exists(victim), "%s was not made again" % reports[0])


def case_triage_time_limit_named():
    fleet = sample_fleet("timelimit-fleet", 3)
    out = triage_out("timelimit-out")
    run("triage: a tiny --bundle-time-limit", ["triage", fleet, "--output", out, "--bundle-time-limit", "0.000001"])
    doc = json.load(open(os.path.join(out, "triage.json")))
    for b in doc["bundles"]:
        error = b.get("error") or ""
        expect("triage: time limit", "no playback record in" not in error or "read in part" in error,
               "%s listed as %r" % (b["name"], error))
        if error:
            expect("triage: time limit", "time limit" in error, "%s: %r" % (b["name"], error))


def case_triage_refused_merge_leaves_nothing():
    fleet = sample_fleet("merge-fleet", 2)
    shard = triage_out("merge-shard")
    run("triage: shard", ["triage", fleet, "--output", shard, "--shard", "1/1"])
    merged = triage_out("merge-refused")
    run("triage: merge of the same shard twice", ["triage", "merge", shard, shard, "--output", merged], statuses=(1,))
    expect("triage: refused merge", not os.path.exists(merged), "left %r" % (os.listdir(merged) if os.path.isdir(merged) else merged))
    existing = triage_out("merge-existing")
    run("triage: an earlier output", ["triage", fleet, "--output", existing])
    before = sorted(os.listdir(existing))
    report_before = sha(os.path.join(existing, "index.md"))
    run("triage: a refused merge over it", ["triage", "merge", shard, shard, "--output", existing, "--force"],
        statuses=(1,))
    expect("triage: refused merge", sorted(os.listdir(existing)) == before and sha(os.path.join(existing, "index.md")) == report_before,
           "the earlier output changed")


def case_triage_concurrent_runs():
    fleet = sample_fleet("concurrent-fleet", 4)
    out = triage_out("concurrent-out")
    for trial in range(3):
        procs = [subprocess.Popen([hb.BIN, "triage", fleet, "--output", out, "--force"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE) for _ in range(4)]
        codes = []
        for p in procs:
            err = p.stderr.read()
            p.wait(timeout=120)
            codes.append(p.returncode)
            if p.returncode == 1:
                expect("triage: concurrent", b"another triage is writing" in err, "exit 1 with %r" % err[-200:])
        expect("triage: concurrent", all(c in (0, 1) for c in codes) and 0 in codes, "exit statuses %r" % codes)
        con = sqlite3.connect(os.path.join(out, "triage.sqlite"))
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        con.close()
        expect("triage: concurrent", ok == "ok", "integrity_check after trial %d: %s" % (trial, ok))
        doc = json.load(open(os.path.join(out, "triage.json")))
        unreadable = [b["name"] for b in doc["bundles"] if b.get("error")]
        expect("triage: concurrent", not unreadable, "bundles listed unreadable: %r" % unreadable)
    run("triage: --since-index after concurrent runs", ["triage", fleet, "--output", out, "--since-index"], statuses=(0,))


# ---------------------------------------------------------------- what held, kept


def case_held_index_not_sqlite_or_other_schema():
    fleet = sample_fleet("held-index-fleet", 1)
    out = triage_out("held-index-out")
    run("held: first run", ["triage", fleet, "--output", out])
    open(os.path.join(out, "triage.sqlite"), "wb").write(b"not a database" * 100)
    run("held: a non-SQLite index", ["triage", fleet, "--output", out, "--since-index"], statuses=(1,))
    os.unlink(os.path.join(out, "triage.sqlite"))
    con = sqlite3.connect(os.path.join(out, "triage.sqlite"))
    con.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    con.execute("INSERT INTO meta VALUES ('schema_version', '999')")
    con.commit()
    con.close()
    run("held: an index of another schema", ["triage", fleet, "--output", out, "--since-index"], statuses=(1,))


def case_held_sql_metacharacters_in_names():
    fleet = new_fleet("held-sql", ["a'; DROP TABLE bundles; --", 'b" OR 1=1 --', "c%_\\"])
    out = triage_out("held-sql-out")
    run("held: SQL metacharacters in bundle names", ["triage", fleet, "--output", out], statuses=(0,))
    doc = json.load(open(os.path.join(out, "triage.json")))
    expect("held: SQL names", len(doc["bundles"]) == 3, "%d bundles" % len(doc["bundles"]))


def case_held_kill_then_since_index():
    fleet = sample_fleet("held-kill-fleet", 4)
    out = triage_out("held-kill-out")
    for delay in (0.01, 0.03, 0.05, 0.1, 0.2, 0.5):
        p = subprocess.Popen([hb.BIN, "triage", fleet, "--output", out, "--force", "--jobs", "1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.kill()
        p.wait()
        run("held: --since-index after kill -9 at %.2f s" % delay, ["triage", fleet, "--output", out, "--since-index"],
            statuses=(0,))
    clean = triage_out("held-kill-clean")
    run("held: a clean run", ["triage", fleet, "--output", clean])
    for name in ("index.md", "triage.json"):
        expect("held: kill -9", sha(os.path.join(out, name)) == sha(os.path.join(clean, name)), "%s differs from a clean run" % name)


def case_held_years_and_zones():
    b = new_bundle("held-years", neighbour=False)
    rows = []
    for year in ("0000", "0001", "1969", "2038", "9999"):
        rows.append(access_row(0).replace("2026/11/21", year + "/01/01"))
    open(os.path.join(b, "access.log"), "w").write(ACCESS_HEAD + "".join(rows))
    for tz in ("UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham", "+14:00", "=-12:00"):
        flag = ["--timezone" + tz] if tz.startswith("=") else ["--timezone", tz]
        run("held: years 0000–9999, --timezone %s" % tz, ["analyze", b] + flag)
    for env_tz in ("Asia/Kathmandu", "America/Caracas"):
        old = os.environ.get("TZ")
        os.environ["TZ"] = env_tz
        try:
            run("held: TZ=%s" % env_tz, ["analyze", b, "--report", "json"])
        finally:
            if old is None:
                os.environ.pop("TZ", None)
            else:
                os.environ["TZ"] = old


def case_review_planted_index_rows():
    """Found in review: an earlier index's rows are input too (a `../` report name, a BLOB)."""
    fleet = sample_fleet("rows-fleet", 2)
    out = triage_out("rows-out")
    run("review: first run", ["triage", fleet, "--output", out])
    victim = os.path.join(hb.WORK, "victim-notes")
    for ext in (".md", ".json"):
        open(victim + ext, "w").write("untouched")
    rel = os.path.relpath(victim, os.path.join(out, "bundles"))
    con = sqlite3.connect(os.path.join(out, "triage.sqlite"))
    con.execute("INSERT INTO bundles (file, name, content_hash, analyzer, error, skipped, incomplete, verdict, could_not_judge, input_problems, session_count) VALUES (?, 'gone', 'h', 'x', NULL, 0, NULL, NULL, NULL, 0, 0)", (rel,))
    con.commit()
    con.close()
    run("review: --since-index over a ../ report name", ["triage", fleet, "--output", out, "--since-index"],
        statuses=(1,))
    for ext in (".md", ".json"):
        expect("review: ../ row", os.path.exists(victim + ext), "a file outside OUT was deleted: %s" % (victim + ext))
    # A BLOB where the schema has text: refused, never a crash.
    out2 = triage_out("rows-out2")
    run("review: second output", ["triage", fleet, "--output", out2])
    con = sqlite3.connect(os.path.join(out2, "triage.sqlite"))
    con.execute("INSERT INTO meta VALUES ('x', X'FF')")
    con.execute("UPDATE failed_requests SET host = X'FFFE'")
    con.commit()
    con.close()
    run("review: BLOBs in an earlier index", ["triage", fleet, "--output", out2, "--since-index"], statuses=(0, 1))
    shard = triage_out("rows-shard")
    run("review: a shard", ["triage", fleet, "--output", shard, "--shard", "1/1"])
    con = sqlite3.connect(os.path.join(shard, "triage.sqlite"))
    con.execute("INSERT INTO meta VALUES ('y', X'FF')")
    con.commit()
    con.close()
    run("review: merge of a shard with a BLOB", ["triage", "merge", shard, "--output", triage_out("rows-merged")],
        statuses=(0, 1))


def case_review_merge_beside_a_running_triage():
    """A merge refused because another run holds OUT never removes that run's files."""
    fleet = sample_fleet("busy-fleet", 2)
    shard = triage_out("busy-shard")
    run("review: shard", ["triage", fleet, "--output", shard, "--shard", "1/1"])
    out = triage_out("busy-out")
    os.makedirs(out)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1] + '/triage.lock', os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "open(sys.argv[1] + '/triage.sqlite.new', 'w').write('in progress')\n"
        "print('locked', flush=True)\n"
        "time.sleep(30)\n"), out], stdout=subprocess.PIPE)
    holder.stdout.readline()
    try:
        rc, _, err = run("review: merge while another run holds OUT", ["triage", "merge", shard, "--output", out],
                         statuses=(1,))
        expect("review: busy merge", "another triage is writing" in err, "message: %r" % err[-200:])
        expect("review: busy merge", os.path.exists(os.path.join(out, "triage.sqlite.new")),
               "the running triage's index was removed")
    finally:
        holder.kill()
        holder.wait()


def case_review_hard_link_in_bundles():
    fleet = sample_fleet("hard-fleet", 1)
    out = triage_out("hard-out")
    run("review: first run", ["triage", fleet, "--output", out])
    name = sorted(n for n in os.listdir(os.path.join(out, "bundles")) if n.endswith(".md"))[0]
    victim = os.path.join(hb.WORK, "hard-victim.md")
    open(victim, "w").write("untouched")
    os.unlink(os.path.join(out, "bundles", name))
    os.link(victim, os.path.join(out, "bundles", name))
    run("review: a hard link planted in bundles/", ["triage", fleet, "--output", out, "--since-index"],
        statuses=(0, 1))
    expect("review: hard link", open(victim).read() == "untouched", "written through a hard link")


def case_review_fail_on_unreadable_and_nested_output():
    fleet = sample_fleet("gate-fleet", 1)
    open(os.path.join(fleet, "broken.zip"), "wb").write(b"PK\x03\x04\x00\x00\x01")
    out = os.path.join(hb.WORK, "gate", "deeper", "out")
    rc, _, err = run("review: --fail-on with an unreadable bundle, nested --output",
                     ["triage", fleet, "--output", out, "--fail-on", "critical"], statuses=(3,))
    expect("review: nested output", os.path.exists(os.path.join(out, "index.md")), "no index in a nested output")
    foreign = os.path.join(hb.WORK, "foreign")
    os.makedirs(foreign)
    open(os.path.join(foreign, "mine.txt"), "w").write("x")
    run("review: a foreign output is refused", ["triage", fleet, "--output", foreign], statuses=(1,))
    expect("review: foreign output", sorted(os.listdir(foreign)) == ["mine.txt"], "left %r" % os.listdir(foreign))


def case_held_million_member_zip():
    """Held in round three's trial; kept: a zip of 1,000,000 empty members (the files-per-bundle
    limit stops the walk; memory and time stay bounded)."""
    import struct
    path = os.path.join(hb.WORK, "million.zip")
    locals_, central = [], []
    offset = 0
    for i in range(1000000):
        name = b"f%07d" % i
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0) + name
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0,
                                   0, 0, offset) + name)
        locals_.append(local)
        offset += len(local)
    cd = b"".join(central)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, len(cd), offset, 0)
    with open(path, "wb") as f:
        f.write(b"".join(locals_))
        f.write(cd)
        f.write(end)
    run("held: a zip of 1,000,000 members", ["analyze", path], time_limit=30)


def case_held_million_entry_har():
    """Held; kept: a HAR of 1,000,000 entries (read to the record limit, bounded)."""
    path = os.path.join(hb.WORK, "million.har.gz")
    entry = ('{"startedDateTime":"2026-11-21T10:00:00.000Z","time":1,"request":{"method":"GET","url":'
             '"https://cdn.example.com/v/s%d.ts","headers":[]},"response":{"status":200,"headers":[],'
             '"content":{"size":1,"mimeType":"video/mp2t"}}}')
    with gzip.open(path, "wt", compresslevel=1) as f:
        f.write('{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[')
        f.write(",".join(entry % i for i in range(1000000)))
        f.write("]}}")
    run("held: a HAR of 1,000,000 entries", ["analyze", path], time_limit=60)


def case_held_ten_thousand_bundles():
    """Held; kept: 10,000 bundles with --jobs 64 (two cores: oversubscribed, never stuck)."""
    fleet = new_fleet("ten-thousand")
    row = access_row(0)
    for i in range(10000):
        with open(os.path.join(fleet, "b%05d.log" % i), "w") as f:
            f.write(ACCESS_HEAD + row)
    out = triage_out("ten-thousand-out")
    run("held: 10,000 bundles, --jobs 64", ["triage", fleet, "--output", out, "--jobs", "64"], time_limit=180)
    doc = json.load(open(os.path.join(out, "triage.json")))
    expect("held: 10,000 bundles", len(doc["bundles"]) == 10000, "%d bundles" % len(doc["bundles"]))


# Eighteen markup payloads (HTML, SVG, attribute and URL-scheme breakouts, Markdown that becomes
# markup), planted in every field a report shows.
PAYLOADS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>", "\"><script>alert(1)</script>", "'><img src=x onerror=alert(1)>",
    "</title><script>alert(1)</script>", "</style><script>alert(1)</script>", "<iframe src=javascript:alert(1)>",
    "<a href=javascript:alert(1)>x</a>", "[x](javascript:alert(1))", "![x](https://evil.example/p.png)",
    "<details open ontoggle=alert(1)>", "<math><mi xlink:href=javascript:alert(1)>", "<!--", "]]><script>alert(1)</script>",
    "<object data=javascript:alert(1)>", "<svg><foreignObject><body onload=alert(1)>",
]


def case_held_markup_payloads_in_every_field():
    """Held; kept: eighteen markup payloads in URLs, hosts, headers, error texts, file names and
    session ids make no element, attribute or link in the HTML or Markdown report."""
    b = new_bundle("payloads", neighbour=False)
    entries = []
    for i, p in enumerate(PAYLOADS):
        q = p.replace("\"", "%22")
        entries.append({"startedDateTime": hb.iso(i), "time": 50,
                        "request": {"method": "GET", "url": "https://cdn.example.com/v/%s/s%d.ts?x=%s" % (q, i, q),
                                    "headers": [{"name": "X-Playback-Session-Id", "value": "S-" + p}]},
                        "response": {"status": 503, "headers": [{"name": "Server", "value": p}],
                                     "content": {"size": 0, "mimeType": "video/mp2t"}}})
    open(os.path.join(b, "capture.har"), "w").write(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    rows = "".join(
        '2026/11/21 10:00:%02d.000 https://cdn.example.com/v/s%d.ts %s 203.0.113.7 -12938 "CoreMediaErrorDomain" "%s" -\n'
        % (i, i, GUID, p.replace('"', "'")) for i, p in enumerate(PAYLOADS))
    open(os.path.join(b, "error.log"), "w").write(ERROR_HEAD + rows)
    open(os.path.join(b, "<svg onload=alert(1)>.m3u8"), "w").write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n<script>alert(1)</script>.ts\n")
    rc, page, _ = run("held: markup payloads, HTML", ["analyze", b, "--report", "html"])
    hb.check_html("held: markup payloads, HTML", page)
    rc, md, _ = run("held: markup payloads, Markdown", ["analyze", b])
    hb.check_markdown("held: markup payloads, Markdown", md)
    fleet = new_fleet("payload-fleet")
    shutil.copytree(b, os.path.join(fleet, "<img src=x onerror=alert(1)>"))
    out = triage_out("payload-out")
    run("held: markup payloads, triage", ["triage", fleet, "--output", out])
    hb.check_html("held: markup payloads, triage index.html", open(os.path.join(out, "index.html")).read())
    hb.check_markdown("held: markup payloads, triage index.md", open(os.path.join(out, "index.md")).read())


# ---------------------------------------------------------------- server (CDN) logs (issue 32)

CF_FIELDS = ("date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) "
             "cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol "
             "cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type "
             "cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte "
             "x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end")


def cf_row(second, path, rid, ip="198.51.100.9", status="200", result="Hit", pop="FRA56-P3", query="-",
           cookie="-", xff="-", detail=None, taken="0.100", ttfb="0.002"):
    return "\t".join(["2026-11-21", "10:%02d:%02d" % (second // 60 % 60, second % 60), pop, "1000", ip, "GET",
                      "d1.cloudfront.net", path, status, "-", "AppleCoreMedia/1.0.0", query, cookie, result, rid,
                      "video.example.com", "https", "300", taken, xff, "TLSv1.3", "TLS_AES_128_GCM_SHA256", result,
                      "HTTP/2.0", "-", "-", "5000", ttfb, detail or result, "video/mp4", "1000", "-", "-"])


def metric_segments(count, path="/v/s.ts", header=None):
    lines = []
    for i in range(count):
        t = i * 0.5
        headers = {header[0]: header[1] % i} if header else {}
        url = "https://video.example.com" + path
        lines.append(json.dumps({
            "type": "AVMetricHLSMediaSegmentRequestEvent", "date": hb.iso(t + 0.2), "sessionID": GUID, "url": url,
            "mediaResourceRequestEvent": {"url": url, "requestStartTime": hb.iso(t), "responseEndTime": hb.iso(t + 0.2),
                                          "networkTransactionMetrics": {"transactionMetrics": [
                                              {"response": {"statusCode": 200, "headers": headers}}]}}}))
    return "\n".join(lines) + "\n"


def case_cdn_popular_segment():
    """20,000 requests for one segment path, 200,000 CloudFront rows for it (every viewer's),
    request ids repeated on a fifth of them: the join's work is bounded, the run finishes inside
    the limits, and no other viewer's row is cited."""
    b = new_bundle("cdn-popular", neighbour=False)
    open(os.path.join(b, "events.jsonl"), "w").write(metric_segments(20000, header=("x-amz-cf-id", "ID%d==")))
    rows = [cf_row(i % 3600, "/v/s.ts", "ID%d==" % (i % 4000) if i % 5 == 0 else "OTHER%d==" % i,
                   ip="203.0.113.%d" % (i % 250)) for i in range(200000)]
    open(os.path.join(b, "E1.2026-11-21-10.x.log"), "w").write("#Version: 1.0\n#Fields: " + CF_FIELDS + "\n" + "\n".join(rows) + "\n")
    run("cdn: popular segment, JSON", ["analyze", b, "--report", "json"])
    run("cdn: popular segment, Markdown", ["analyze", b])


def case_cdn_markup_and_personal_data():
    """Markup in every CloudFront field a report shows (POP, request id, detail, path), and the
    viewer's IP, cookie, forwarded-for and a token in the query planted: no element in the HTML or
    Markdown, and nothing planted in any output."""
    b = new_bundle("cdn-markup", neighbour=False)
    open(os.path.join(b, "events.jsonl"), "w").write(metric_segments(len(PAYLOADS), header=("x-amz-cf-id", "R%d")))
    rows = []
    for i, p in enumerate(PAYLOADS):
        cell = p.replace("\t", " ").replace("\n", " ")
        rows.append(cf_row(i // 2, "/v/s.ts", "R%d" % i, ip="PLANTED198.51.100.%d" % i, status="404", result="Error",
                           pop=cell, query="token=PLANTEDtok%d&x=%s" % (i, cell), cookie="sid=PLANTEDcookie%d" % i,
                           xff="PLANTED10.0.0.%d" % i, detail=cell, ttfb="0.001", taken="0.001"))
    open(os.path.join(b, "E1.2026-11-21-10.y.log"), "w").write("#Version: 1.0\n#Fields: " + CF_FIELDS + "\n" + "\n".join(rows) + "\n")
    rc, page, _ = run("cdn: markup, HTML", ["analyze", b, "--report", "html"])
    hb.check_html("cdn: markup, HTML", page)
    rc, md, _ = run("cdn: markup, Markdown", ["analyze", b])
    hb.check_markdown("cdn: markup, Markdown", md)
    expect("cdn: markup, Markdown", "Server side (CDN logs)" in md, "no server-side section")
    run("cdn: markup, JSON", ["analyze", b, "--report", "json"])
    run("cdn: markup, parse", ["parse", b, "--json"])


def case_cdn_logs_option():
    """--cdn-logs: a folder of a day's logs beside the bundle; a client log handed as a CDN log is
    not read (and says why); a path that does not exist is a runtime error, not a crash."""
    b = new_bundle("cdn-option", neighbour=False)
    open(os.path.join(b, "events.jsonl"), "w").write(metric_segments(20, header=("x-amz-cf-id", "Q%d==")))
    logs = os.path.join(hb.WORK, "cdn-day")
    os.makedirs(logs, exist_ok=True)
    open(os.path.join(logs, "E1.2026-11-21-10.z.log"), "w").write(
        "#Version: 1.0\n#Fields: " + CF_FIELDS + "\n" + "\n".join(cf_row(i // 2, "/v/s.ts", "Q%d==" % i) for i in range(20)) + "\n")
    open(os.path.join(logs, "stray.jsonl"), "w").write(metric_segments(3))
    rc, out, _ = run("cdn: --cdn-logs", ["analyze", b, "--report", "json", "--cdn-logs", logs])
    report = json.loads(out)
    joined = report["sessions"][0].get("server_join", {}).get("joined", {})
    expect("cdn: --cdn-logs", joined.get("exact") == 20, "expected 20 exact joins, got %r" % joined)
    reasons = [i.get("not_read") for i in report["inputs"] if "stray" in i["path"]]
    expect("cdn: --cdn-logs", reasons and reasons[0] and "not a server log" in str(reasons[0]),
           "a client log among the CDN logs was not refused: %r" % reasons)
    run("cdn: --cdn-logs missing", ["analyze", b, "--cdn-logs", os.path.join(hb.WORK, "no-such-dir")], statuses=(1,))
    # A broken archive among the CDN logs: diagnosed under `cdn-logs/`, the path as typed never shown.
    secret_dir = os.path.join(hb.WORK, "home-alice-private")
    os.makedirs(secret_dir, exist_ok=True)
    open(os.path.join(secret_dir, "day.zip"), "wb").write(b"PK\x03\x04" + os.urandom(200))
    rc, out, _ = run("cdn: --cdn-logs broken zip", ["analyze", b, "--cdn-logs", os.path.join(secret_dir, "day.zip")])
    expect("cdn: --cdn-logs broken zip", "home-alice-private" not in out, "the CDN log path as typed is in the report")


CASES = [
    case_config_alias_bomb, case_config_deep_nesting, case_config_duplicate_keys, case_config_not_a_file,
    case_write_full_device, case_write_closed_and_broken_pipe, case_output_dash_is_stdout,
    case_secrets_new_shapes,
    case_triage_link_out_of_dir, case_triage_out_links, case_triage_planted_trigger, case_triage_missing_report_rebuilt,
    case_triage_time_limit_named, case_triage_refused_merge_leaves_nothing, case_triage_concurrent_runs,
    case_held_index_not_sqlite_or_other_schema, case_held_sql_metacharacters_in_names, case_held_kill_then_since_index,
    case_held_years_and_zones,
    case_review_planted_index_rows, case_review_merge_beside_a_running_triage, case_review_hard_link_in_bundles,
    case_review_fail_on_unreadable_and_nested_output,
    case_held_million_member_zip, case_held_million_entry_har, case_held_ten_thousand_bundles,
    case_held_markup_payloads_in_every_field,
    case_cdn_popular_segment, case_cdn_markup_and_personal_data, case_cdn_logs_option,
    # Last: reading its large outputs grows this process, and a child's peak memory (ru_maxrss)
    # starts from the parent's at fork, which would inflate every later case's figure.
    case_report_100k_sessions,
]

if __name__ == "__main__":
    hb.main(CASES, "every round-three case held")
