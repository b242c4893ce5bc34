#!/usr/bin/env python3
"""The hostile-bundle suite (issue 16): one generated case per bullet of the issue's list, run
against a release build of the tool.

Every run must end by itself with exit status 0, 1 or 2 (never a signal) within 10 s and 1 GiB of
peak memory; a good neighbour file placed in each bundle must keep all its records; no planted
secret (every one contains PLANTED) may appear in any output; the Markdown must render
(CommonMark, markdown-it-py) without one HTML element, and no output may carry a terminal escape
or a bidi control character from the logs.

Usage: python3 Scripts/hostile_bundles.py [BINARY] [--keep] [--only NAME...]
Exit status: 0 when every case holds, 1 otherwise (the failures are listed).
"""
import base64
import gzip
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME_LIMIT = 10.0
MEMORY_LIMIT_KB = 1 << 20  # 1 GiB
HARD_KILL = 60.0
NEIGHBOUR_SOURCE = os.path.join(ROOT, "SampleLogs", "slow-key-startup", "metrics.jsonl")
NEIGHBOUR = "neighbour-metrics.jsonl"
BIDI = [chr(c) for c in list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A))]

# Set by main (the generators below are also used by Scripts/fuzz_inputs.py, without running).
KEEP = False
ONLY = []
BIN = os.path.join(ROOT, ".build", "release", "playback-forensics")
WORK = None
failures = []
results = []


# ---------------------------------------------------------------- running


def run(case, argv, stdin=None, cwd=None, files_to_check=(), statuses=(0, 1, 2), stdout_path=None, preexec_fn=None,
        time_limit=None):
    """Runs the tool, measures it, and checks every rule that holds for all runs."""
    out_path = os.path.join(WORK, "stdout-%d" % len(results))
    err_path = os.path.join(WORK, "stderr-%d" % len(results))
    with open(stdout_path or out_path, "wb") as out, open(err_path, "wb") as err:
        stdin_file = open(stdin, "rb") if stdin else subprocess.DEVNULL
        start = time.monotonic()
        p = subprocess.Popen([BIN] + argv, stdin=stdin_file, stdout=out, stderr=err, cwd=cwd or WORK,
                             start_new_session=True, env=dict(os.environ, NO_COLOR="1"), preexec_fn=preexec_fn)
        killed = False
        status = None
        usage = None
        while True:
            pid, st, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                status, usage = st, ru
                break
            if time.monotonic() - start > HARD_KILL:
                os.killpg(p.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.01)
        elapsed = time.monotonic() - start
        if stdin:
            stdin_file.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    stdout = open(out_path, "rb").read() if stdout_path is None else b""
    stderr = open(err_path, "rb").read()
    label = "%s: %s" % (case, " ".join(a if len(a) < 60 else a[:57] + "…" for a in argv))
    problems = []
    if killed:
        problems.append("killed after %.0f s" % HARD_KILL)
    elif p.returncode < 0:
        problems.append("died of signal %d" % -p.returncode)
    elif p.returncode not in statuses:
        problems.append("exit status %d" % p.returncode)
    if elapsed > (time_limit or TIME_LIMIT):
        problems.append("took %.1f s" % elapsed)
    if usage.ru_maxrss > MEMORY_LIMIT_KB:
        problems.append("peak memory %d MiB" % (usage.ru_maxrss // 1024))
    texts = [stdout, stderr] + [open(f, "rb").read() for f in files_to_check if os.path.exists(f)]
    for t in texts:
        check_output_text(t, problems)
    results.append((label, p.returncode, elapsed, usage.ru_maxrss // 1024, problems))
    if problems:
        failures.append("%s → %s" % (label, "; ".join(problems)))
    return p.returncode, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace")


def check_output_text(raw, problems):
    if b"PLANTED" in raw:
        i = raw.index(b"PLANTED")
        problems.append("planted secret printed: …%r…" % raw[max(0, i - 60):i + 20])
    if b"\x1b" in raw:
        problems.append("terminal escape in the output")
    text = raw.decode("utf-8", "replace")
    for c in BIDI:
        if c in text:
            problems.append("bidi control U+%04X in the output" % ord(c))
            break


# The report's own HTML: the collapsible timeline of a finding. Anything else came from a log.
OWN_HTML = {"<details><summary>Timeline around this finding</summary>", "</details>"}


def check_markdown(case, markdown):
    """No HTML element may come out of log text: CommonMark with raw HTML enabled."""
    from markdown_it import MarkdownIt
    stack = list(MarkdownIt("commonmark").parse(markdown))
    while stack:
        t = stack.pop()
        if t.type in ("html_block", "html_inline") and t.content.strip() not in OWN_HTML:
            failures.append("%s: raw HTML in the Markdown: %r" % (case, t.content[:80]))
            return
        if t.children:
            stack.extend(t.children)
    for line in markdown.splitlines():
        if line.lstrip().startswith("#") and "ALL CLEAR" in line:
            failures.append("%s: a log text made a heading: %r" % (case, line[:80]))
            return


HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "li",
             "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "strong", "a", "details", "summary",
             "svg", "text", "line", "rect", "polygon", "span", "g", "circle", "div"}


def check_html(case, page):
    """The HTML report holds only the elements the tool writes, no comment, and no event handler."""
    from html.parser import HTMLParser

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag not in HTML_TAGS:
                failures.append("%s: element <%s> in the HTML report" % (case, tag))
            for name, _ in attrs:
                if name.startswith("on"):
                    failures.append("%s: event handler %s in the HTML report" % (case, name))

        def handle_comment(self, data):
            failures.append("%s: comment in the HTML report" % case)
    Tags().feed(page)
    if "ALL CLEAR" in page and ("<h1>ALL CLEAR" in page or "<h2>ALL CLEAR" in page):
        failures.append("%s: a log text made a heading in the HTML report" % case)


def neighbour_records():
    rc, out, _ = run("setup", ["parse", "--json", NEIGHBOUR_SOURCE])
    data = json.loads(out)
    return len(data["files"][0]["records"])


def analyze_checked(case, bundle, extra=(), expect_neighbour=True, stdin=None, json_only=False):
    """analyze as Markdown and as JSON; the neighbour keeps every record."""
    target = "-" if stdin else bundle
    if not json_only:
        rc, md, _ = run(case, ["analyze", target] + list(extra), stdin=stdin)
        check_markdown(case, md)
    rc, js, err = run(case, ["analyze", target, "--report", "json"] + list(extra), stdin=stdin)
    report = None
    try:
        report = json.loads(js) if js.strip() else None
    except ValueError:
        failures.append("%s: JSON report is not JSON" % case)
    if expect_neighbour:
        kept = [i for i in (report or {}).get("inputs", []) if i["path"].endswith(NEIGHBOUR)]
        if not kept or kept[0]["records"] != NEIGHBOUR_RECORDS:
            failures.append("%s: the neighbour lost records (%s of %d)" % (case, kept[0]["records"] if kept else "none", NEIGHBOUR_RECORDS))
    return report


def new_bundle(name, neighbour=True):
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    if neighbour:
        shutil.copy(NEIGHBOUR_SOURCE, os.path.join(d, NEIGHBOUR))
    return d


def new_fleet(name, good=()):
    """A folder of bundles for triage, with a good bundle (the neighbour alone) per name in `good`."""
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    for g in good:
        os.makedirs(os.path.join(d, g), exist_ok=True)
        shutil.copy(NEIGHBOUR_SOURCE, os.path.join(d, g, NEIGHBOUR))
    return d


def records_of(report, suffix):
    return sum(i["records"] for i in (report or {}).get("inputs", []) if i["path"].endswith(suffix))


def expect(case, condition, message):
    if not condition:
        failures.append("%s: %s" % (case, message))


# ---------------------------------------------------------------- generators

ACCESS_FIELDS = ("date time uri cs-guid s-ip s-ip-changes sc-count c-duration-downloaded c-start-time "
                 "c-duration-watched bytes c-observed-bitrate sc-indicated-bitrate c-stalls c-frames-dropped "
                 "c-startup-time c-overdue c-reason c-observed-min-bitrate c-observed-max-bitrate "
                 "c-observed-bitrate-sd s-playback-type sc-wwan-count c-switch-bitrate")
ACCESS_HEAD = ("#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)\n"
               "#Date: 2026/11/21 05:05:05.005\n#Fields: " + ACCESS_FIELDS + "\n")
ERROR_HEAD = ("#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)\n"
              "#Date: 2026/11/21 05:00:00.000\n#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n")
GUID = "4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B5A"


def access_row(i, guid=GUID, stalls="0", uri=None):
    s = i % 86400
    uri = uri or "https://edge3.cdn.example.org/vod/v%d/prog_index.m3u8" % (i % 7)
    return ("2026/11/21 %02d:%02d:%02d.000 %s %s 198.51.100.23 0 52 312.000 0.000 300.400 450000000 "
            "40500000.000 12000000 %s 0 1.310 0 - 21000000.000 56000000.000 - VOD 0 12000000\n"
            % (s // 3600, (s // 60) % 60, s % 60, uri, guid, stalls))


def metric_event(kind, t, session="9A0B0C0D-1111-2222-3333-444455556666", **extra):
    e = {"type": kind, "date": t, "sessionID": session}
    e.update(extra)
    return json.dumps(e, separators=(",", ":"))


def segment_event(t, url, start, end, status=200, session="9A0B0C0D-1111-2222-3333-444455556666"):
    return metric_event("AVMetricHLSMediaSegmentRequestEvent", t, session=session, mediaTime=0,
                        indexFileURL="https://cdn.example.com/v/index.m3u8",
                        mediaResourceRequestEvent={
                            "url": url, "requestStartTime": start, "requestEndTime": start,
                            "responseStartTime": end, "responseEndTime": end, "readFromCache": False,
                            "networkTransactionMetrics": {"transactionMetrics": [{"response": {"statusCode": status}}]}})


def iso(seconds):
    seconds = max(0.0, seconds)
    ms = int(round(seconds * 1000))
    return "2026-11-21T%02d:%02d:%02d.%03dZ" % (10 + ms // 3600000, (ms // 60000) % 60, (ms // 1000) % 60, ms % 1000)


def tar_header(name, size_field, typeflag=b"0"):
    h = bytearray(512)
    h[0:len(name)] = name.encode()
    h[100:108] = b"0000644\0"
    h[108:116] = b"0000000\0"
    h[116:124] = b"0000000\0"
    h[124:136] = size_field
    h[136:148] = b"00000000000\0"
    h[148:156] = b" " * 8
    h[156:157] = typeflag
    h[257:263] = b"ustar\0"
    h[263:265] = b"00"
    checksum = sum(h)
    h[148:156] = b"%06o\0 " % checksum
    return bytes(h)


def tar_member(name, data):
    size = b"%011o\0" % len(data)
    pad = (512 - len(data) % 512) % 512
    return tar_header(name, size) + data + b"\0" * pad


def zip_overlapping(path, kernel, count):
    """One deflated kernel, `count` central-directory entries all pointing at it."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = comp.compress(kernel) + comp.flush()
    crc = zlib.crc32(kernel) & 0xFFFFFFFF
    name = b"kernel.log"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(deflated), len(kernel), len(name), 0) + name
    central = bytearray()
    for i in range(count):
        n = b"m%05d.log" % i
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(deflated), len(kernel),
                               len(n), 0, 0, 0, 0, 0, 0) + n
    offset = len(local) + len(deflated)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), offset, 0)
    with open(path, "wb") as f:
        f.write(local + deflated + central + eocd)


def gzip_repeated(path, chunk, times, head=b""):
    """Concatenated gzip members: `head`, then `chunk` `times` times (compressed once)."""
    member = gzip.compress(chunk, 1)
    with open(path, "wb") as f:
        if head:
            f.write(gzip.compress(head, 1))
        for _ in range(times):
            f.write(member)


# ---------------------------------------------------------------- cases


def case_crash_range_int64max():
    b = new_bundle("range-int64max")
    entries = [{"startedDateTime": iso(i), "time": 50, "request": {"method": "GET", "url": "https://cdn.example.com/v/s%d.ts" % i,
                "headers": [{"name": "Range", "value": "bytes=0-9223372036854775807"}]},
                "response": {"status": 206, "headers": [], "content": {"size": 10, "mimeType": "video/mp2t"}}} for i in range(3)]
    open(os.path.join(b, "capture.har"), "w").write(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    ktv = ("2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Receive request\n"
           "method : GET\npath : /request.ts?url=https%3A%2F%2Fcdn.example.com%2Fv%2Fs1.ts\n"
           "2026-11-21 10:00:01 +0000  KTVHCDataRequest        :   0x2837f0a80, Create\n"
           "URL : https://cdn.example.com/v/s1.ts\nHeaders : {\n    Range = \"bytes=0-9223372036854775807\";\n}\n"
           "Range : {0, 9223372036854775807}\n")
    open(os.path.join(b, "KTVHTTPCache.log"), "w").write(ktv)
    analyze_checked("crash: Range bytes=0-Int64.max (HAR, KTVHTTPCache)", b)


def case_crash_stalls_sum():
    b = new_bundle("stalls-sum")
    open(os.path.join(b, "access.log"), "w").write(ACCESS_HEAD + access_row(1, stalls="9223372036854775807") + access_row(2, stalls="1"))
    analyze_checked("crash: c-stalls Int64.max + 1", b)


def case_crash_tar_base256():
    b = new_bundle("tar-base256", neighbour=False)
    good = open(NEIGHBOUR_SOURCE, "rb").read()
    for label, field in (("near Int.max", b"\x80" + (0x7FFFFFFFFFFFFFFF).to_bytes(11, "big")),
                         ("negative", b"\xff" * 12)):
        data = tar_member(NEIGHBOUR, good) + tar_header("evil.log", field) + b"x" * 1024
        path = os.path.join(b, "bundle-%s.tar" % label.replace(" ", "-").replace(".", ""))
        open(path, "wb").write(data)
        analyze_checked("crash: tar base-256 size %s after good members" % label, path)


def case_crash_triage_one_crafted_tar():
    d = new_fleet("fleet-crafted", ["good-%d" % i for i in range(3)])
    evil = tar_member("a.log", b"#EXTM3U\n") + tar_header("b.log", b"\x80" + (0x7FFFFFFFFFFFFFF0).to_bytes(11, "big")) + b"y" * 1500
    open(os.path.join(d, "crafted.tar"), "wb").write(evil)
    out = os.path.join(WORK, "fleet-crafted-out")
    run("crash: one crafted tar among good bundles (triage)", ["triage", d, "--output", out, "--force"])
    for i in range(3):
        expect("triage crafted tar", os.path.exists(os.path.join(out, "bundles", "good-%d.md" % i)), "good-%d has no report" % i)


def case_hang_zip_overlap():
    kernel = (ACCESS_HEAD + "".join(access_row(i) for i in range(2000))).encode()
    big = kernel * (31_000_000 // len(kernel))
    b = new_bundle("zip-overlap-400")
    zip_overlapping(os.path.join(b, "bomb.zip"), big, 400)
    analyze_checked("hang: zip of 400 members sharing one 31 MB kernel", b)
    b = new_bundle("zip-overlap-20000")
    zip_overlapping(os.path.join(b, "bomb.zip"), kernel * (100_000_000 // len(kernel)), 20000)
    analyze_checked("hang: zip of 20,000 members sharing one 100 MB kernel", b, json_only=True)


def case_hang_gzip_rows():
    b = new_bundle("gzip-14m-rows")
    chunk = "".join(access_row(i) for i in range(7000)).encode()
    gzip_repeated(os.path.join(b, "access.log.gz"), chunk, 2000, head=ACCESS_HEAD.encode())
    report = analyze_checked("hang: gzip of 14 M access-log rows (1.9 GB)", b, json_only=True)
    expect("gzip rows", records_of(report, "access.log.gz") > 0, "the big log kept nothing")


def case_hang_har_bodies():
    b = new_bundle("har-bodies")
    playlist = ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + "#EXTINF:6,\nseg.ts\n" * 100).encode()
    body = base64.b64encode(gzip.compress(playlist * (250_000_000 // len(playlist)), 9)).decode()
    entries = [{"startedDateTime": iso(i), "time": 50, "request": {"method": "GET", "url": "https://cdn.example.com/v/index%d.m3u8" % i, "headers": []},
                "response": {"status": 200, "headers": [], "content": {"size": 250_000_000, "mimeType": "application/vnd.apple.mpegurl",
                                                                       "encoding": "base64", "text": body}}} for i in range(40)]
    open(os.path.join(b, "capture.har.gz"), "wb").write(gzip.compress(json.dumps({"log": {"version": "1.2", "entries": entries}}).encode(), 9))
    report = analyze_checked("hang: .har.gz with 40 bodies of base64(gzip(250 MB playlist))", b, json_only=True)
    expect("har bodies", records_of(report, "capture.har.gz") >= 40, "the capture's requests were lost")


def case_hang_proxy_continuation():
    b = new_bundle("proxy-continuation")
    head = ("2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success\n"
            "2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response\n").encode()
    gzip_repeated(os.path.join(b, "KTVHTTPCache.log.gz"), b"A" * (8 << 20) + b"\n", 220, head=head)
    analyze_checked("hang: one proxy entry with 220 continuation lines of 8 MiB", b, json_only=True)


def case_hang_growing_fifo_device():
    b = new_bundle("growing")
    path = os.path.join(b, "access.log")
    open(path, "w").write(ACCESS_HEAD + "".join(access_row(i) for i in range(1000)))
    stop = threading.Event()

    def grow():
        rows = "".join(access_row(i) for i in range(5000)).encode()
        with open(path, "ab") as f:
            while not stop.is_set():
                f.write(rows)
                f.flush()
    t = threading.Thread(target=grow)
    t.start()
    try:
        analyze_checked("hang: an access log appended to while it is read", b, json_only=True)
    finally:
        stop.set()
        t.join()
    b = new_bundle("fifo")
    os.mkfifo(os.path.join(b, "pipe.log"))
    analyze_checked("hang: a FIFO inside a bundle", b)
    d = new_fleet("fleet-fifo", ["good"])
    os.mkfifo(os.path.join(d, "pipe"))
    run("hang: a FIFO given to triage", ["triage", d, "--output", os.path.join(WORK, "fleet-fifo-out"), "--force"])
    expect("triage fifo", os.path.exists(os.path.join(WORK, "fleet-fifo-out", "bundles", "good.md")), "the good bundle has no report")
    rc, _, _ = run("hang: a device with --log-format", ["analyze", "/dev/zero", "--log-format", "access-log"])
    expect("device", rc == 1, "a device was not refused (exit %d)" % rc)


def case_quadratic():
    b = new_bundle("stalls-one-instant")
    lines = [metric_event("AVMetricPlayerItemStallEvent", iso(5), rate=0.0, previousRate=1.0, mediaTime=5) for _ in range(40000)]
    open(os.path.join(b, "metrics.jsonl"), "w").write("\n".join(lines) + "\n")
    analyze_checked("quadratic: 40,000 stalls at one instant", b, json_only=True)
    b = new_bundle("long-requests-in-flight")
    lines = [segment_event(iso(1 + i * 0.0001), "https://cdn.example.com/v/s%d.ts" % i, iso(1 + i * 0.0001), iso(3600)) for i in range(150000)]
    lines.append(metric_event("AVMetricPlayerItemStallEvent", iso(100), rate=0.0, previousRate=1.0, mediaTime=100))
    open(os.path.join(b, "metrics.jsonl"), "w").write("\n".join(lines) + "\n")
    analyze_checked("quadratic: 150,000 long requests in flight, then one stall", b, json_only=True)
    b = new_bundle("one-url-one-instant")
    lines = [segment_event(iso(2), "https://cdn.example.com/v/same.ts", iso(2), iso(2.5)) for _ in range(260000)]
    open(os.path.join(b, "metrics.jsonl"), "w").write("\n".join(lines) + "\n")
    entries = [{"startedDateTime": iso(2), "time": 500, "request": {"method": "GET", "url": "https://cdn.example.com/v/same.ts", "headers": []},
                "response": {"status": 200, "headers": [], "content": {"size": 10, "mimeType": "video/mp2t"}}} for _ in range(100)]
    open(os.path.join(b, "capture.har"), "w").write(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    analyze_checked("quadratic: 260,000 requests for one URL at one instant plus a HAR", b, json_only=True)
    b = new_bundle("rows-without-guid")
    with open(os.path.join(b, "big-access.log"), "w") as f:
        f.write(ACCESS_HEAD.replace(" cs-guid", ""))
        for i in range(600000):
            f.write(access_row(i).replace(" " + GUID, ""))
    open(os.path.join(b, "sessions.log"), "w").write(ACCESS_HEAD + access_row(10, guid="AAAAAAAA-0000-0000-0000-000000000001") + access_row(20, guid="AAAAAAAA-0000-0000-0000-000000000002"))
    analyze_checked("quadratic: 600,000 access-log rows without cs-guid next to 2 sessions", b, json_only=True)
    # Found by the cache-log fuzzer as a slow unit: making control characters visible appended
    # to a scalar view, copying the text so far at each one.
    b = new_bundle("control-junk-line")
    junk = bytes([0x1B, 0x01, 0x7F, 0x08]) * (1 << 20)
    with open(os.path.join(b, "KTVHTTPCache.log"), "wb") as f:
        f.write(b"2026-11-21 10:00:00 +0000  KTVHCDataReader         :   0x283c94150, " + junk + b"\n")
    analyze_checked("quadratic: a 4 MiB proxy-log line of control characters", b, json_only=True)


def case_lost_metric_first_line():
    good = [metric_event("AVMetricPlayerItemRateChangeEvent", iso(i), rate=1.0, previousRate=0.0, mediaTime=i) for i in range(8)]
    for label, first in (("two glued events", good[0] + good[1]), ("a cut line", good[0][:40])):
        b = new_bundle("metric-" + label.replace(" ", "-"))
        open(os.path.join(b, "dump.jsonl"), "w").write(first + "\n" + "\n".join(good) + "\n")
        report = analyze_checked("lost: metric dump whose first line is %s" % label, b, json_only=True)
        expect("metric " + label, records_of(report, "dump.jsonl") >= 8, "good events lost (%d kept)" % records_of(report, "dump.jsonl"))
    b = new_bundle("metric-batches")
    batches = ["{\"events\":[%s]}" % ",".join(good[i:i + 2]) for i in range(0, 8, 2)]
    open(os.path.join(b, "dump.jsonl"), "w").write("\n".join(batches) + "\n")
    report = analyze_checked("lost: several {\"events\": […]} lines", b, json_only=True)
    expect("metric batches", records_of(report, "dump.jsonl") == 8, "batches lost (%d of 8)" % records_of(report, "dump.jsonl"))


def case_lost_compression():
    # Rows that do not compress to nothing, so that a cut stream still holds whole rows.
    log = (ACCESS_HEAD + "".join(access_row(i, uri="https://c.example.com/%s.m3u8" % os.urandom(12).hex()) for i in range(50))).encode()
    gz = gzip.compress(log)
    for label, data in (("truncated gzip", gz[:len(gz) * 2 // 3]), ("gzip with trailing bytes", gz + b"\x13\x37garbage")):
        b = new_bundle("small-" + label.replace(" ", "-"))
        open(os.path.join(b, "access.log.gz"), "wb").write(data)
        report = analyze_checked("lost: a small %s" % label, b, json_only=True)
        expect(label, records_of(report, "access.log.gz") > 0, "its complete lines were lost")
    b = new_bundle("cut-tar", neighbour=False)
    data = tar_member(NEIGHBOUR, open(NEIGHBOUR_SOURCE, "rb").read()) + tar_member("access.log", log)
    open(os.path.join(b, "bundle.tar"), "wb").write(data[:len(data) - 2000])
    analyze_checked("lost: a cut tar member", os.path.join(b, "bundle.tar"))
    b = new_bundle("bad-crc", neighbour=False)
    zpath = os.path.join(b, "bundle.zip")
    import zipfile
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(NEIGHBOUR, open(NEIGHBOUR_SOURCE, "rb").read())
        z.writestr("access.log", log)
    raw = bytearray(open(zpath, "rb").read())
    i = raw.find(b"access.log")  # local header: CRC at offset 14 from the signature
    sig = raw.rfind(b"PK\x03\x04", 0, i)
    raw[sig + 14] ^= 0xFF
    open(zpath, "wb").write(bytes(raw))
    analyze_checked("lost: a zip member with a bad CRC", zpath)


def case_lost_nesting_and_names():
    import zipfile
    log = (ACCESS_HEAD + "".join(access_row(i) for i in range(20))).encode()
    b = new_bundle("zip-in-zip")
    inner = os.path.join(WORK, "inner.zip")
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("access.log", log)
    with zipfile.ZipFile(os.path.join(b, "outer.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.write(inner, "inner.zip")
    report = analyze_checked("lost: a zip inside a zip", b, json_only=True)
    expect("zip in zip", records_of(report, "inner.zip/access.log") == 20, "nested members lost")
    b = new_bundle("gzip-of-gzip")
    open(os.path.join(b, "access.log.gz.gz"), "wb").write(gzip.compress(gzip.compress(log)))
    report = analyze_checked("lost: gzip of gzip", b, json_only=True)
    expect("gzip of gzip", records_of(report, "access.log.gz.gz") == 20, "rows lost")
    b = new_bundle("cr-only")
    open(os.path.join(b, "access.log"), "wb").write(log.replace(b"\n", b"\r"))
    report = analyze_checked("lost: CR-only line endings", b, json_only=True)
    expect("cr only", records_of(report, "access.log") == 20, "rows lost")
    b = new_bundle("non-utf8-name")
    open(os.path.join(b.encode(), b"access-\xff\xfe.log"), "wb").write(log)
    report = analyze_checked("lost: a non-UTF-8 file name", b, json_only=True)
    expect("non-utf8", sum(i["records"] for i in report["inputs"] if "access-" in i["path"]) == 20, "rows lost")
    b = new_bundle("deep-path")
    # Made relative to each directory in turn: the whole path is longer than PATH_MAX.
    fd = os.open(b, os.O_RDONLY)
    for _ in range(22):
        os.mkdir("d" * 200, dir_fd=fd)
        child = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    out = os.open("access.log", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(out, log)
    os.close(out)
    os.close(fd)
    report = analyze_checked("lost: a path longer than PATH_MAX", b, json_only=True)
    expect("deep path", sum(i["records"] for i in report["inputs"] if i["path"].endswith("access.log")) == 20, "rows lost")
    zpath = os.path.join(WORK, "stdin-bundle.zip")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(NEIGHBOUR, open(NEIGHBOUR_SOURCE, "rb").read())
        z.writestr("access.log", log)
    analyze_checked("lost: a zip on stdin", None, stdin=zpath)
    tpath = os.path.join(WORK, "stdin-bundle.tar.gz")
    with tarfile.open(tpath, "w:gz") as t:
        t.add(NEIGHBOUR_SOURCE, NEIGHBOUR)
    analyze_checked("lost: a tar.gz on stdin", None, stdin=tpath)


def case_lost_unopenable():
    b = new_bundle("unopenable")
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(b, "control.sock"))
    locked = os.path.join(b, "locked.log")
    open(locked, "w").write(ACCESS_HEAD + access_row(1))
    os.chmod(locked, 0)
    os.symlink(os.path.join(b, "deleted-since-listing.log"), os.path.join(b, "gone.log"))
    analyze_checked("lost: a socket, a mode-000 file and a vanished file in the bundle", b)
    s.close()


PLANTED_HAR_URL = ("https://user:PLANTEDpw1@cdn.example.com/hdnts=exp=1~acl=%2f*~hmac=PLANTEDhdn/v/s{i}.ts"
                   "?auth_key=PLANTEDak&sign=PLANTEDsg&ks=PLANTEDks&wowzatokenhash=PLANTEDwz&hmac=PLANTEDhm"
                   "&client_secret=PLANTEDcs&%74oken=PLANTEDpe#access_token=PLANTEDfr")


def case_secrets():
    b = new_bundle("secrets")
    entries = []
    for i in range(4):
        entries.append({"startedDateTime": iso(i), "time": 50,
                        "request": {"method": "POST", "url": PLANTED_HAR_URL.format(i=i).replace("/v/", "/v;jsessionid=PLANTEDjs/"),
                                    "headers": [{"name": "Cookie", "value": "REDACTED; token=PLANTEDck"},
                                                {"name": "Authorization ", "value": "Bearer PLANTEDau"},
                                                {"name": "x-auth-token", "value": "PLANTEDxa"},
                                                {"name": "x-api-key", "value": "PLANTEDxk"}],
                                    "queryString": [{"name": "token", "value": "PLANTEDqs"}],
                                    "cookies": [{"name": "session", "value": "PLANTEDco"}],
                                    "postData": {"mimeType": "application/json", "text": "{\"authorization\": \"Bearer PLANTEDpd\"}"}},
                        "response": {"status": 403, "headers": [{"name": "Set-Cookie", "value": "CloudFront-Key-Pair-Id=PLANTEDsc; Path=/"}],
                                     "content": {"size": 0, "mimeType": "text/html"}}})
    open(os.path.join(b, "capture.har"), "w").write(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    ktv = ("2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success\n"
           "2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Receive request\n"
           "method : GET\npath : /https%3A%2F%2Fcdn%2Eexample%2Ecom%2Fa%2Em3u8%3Ftoken%3DPLANTEDk3/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m3u8\n"
           "2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response\n"
           "Error : Error Domain=KTVHTTPCache error Code=-192703 \"(null)\" UserInfo={KTVHCErrorUserInfoKeyURL=https://cdn.example.com/a.m3u8?token=PLANTEDk2, "
           "KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x1> { URL: https://cdn.example.com/a.m3u8?sig=PLANTEDk4 } { Status Code: 403, Headers {\n"
           "    \"Set-Cookie\" = \"CloudFront-Signature=PLANTEDk5; Path=/\";\n} }}\n")
    open(os.path.join(b, "KTVHTTPCache.log"), "w").write(ktv)
    errlog = ERROR_HEAD + "".join(
        "2026/11/21 10:00:0%d.000 http://localhost:80/request.mp4?url=https%%3A%%2F%%2Fcdn.example.com%%2Fb.mp4%%3Fauth_key%%3DPLANTEDe%d %s 127.0.0.1 -1004 \"NSURLErrorDomain\" \"Authorization : Bearer PLANTEDec%d\" en0\n"
        % (i, i, GUID, i) for i in range(3))
    open(os.path.join(b, "error.log"), "w").write(errlog)
    open(os.path.join(b, "access.log"), "w").write(ACCESS_HEAD + access_row(1, uri="https://cdn.example.com/p/1/ks/PLANTEDkp/index.m3u8?hdnts=PLANTEDah"))
    open(os.path.join(b, "index.m3u8?token=PLANTEDfn"), "w").write("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts?sig=PLANTEDpl\n")
    for argv in (["analyze", b], ["analyze", b, "--report", "json"], ["analyze", b, "--report", "html"], ["timeline", b],
                 ["timeline", b, "--json"], ["timeline", b, "--json-lines"], ["parse", b], ["parse", b, "--json"],
                 ["parse", b, "--json-lines"]):
        rc, out, _ = run("secrets: %s" % " ".join(argv[:1] + argv[2:]), argv)
        if argv == ["analyze", b]:
            check_markdown("secrets", out)
        if "html" in argv:
            check_html("secrets", out)
    d = new_fleet("fleet-secrets")
    shutil.copytree(b, os.path.join(d, "bundle-token=PLANTEDbn"), dirs_exist_ok=True)
    out = os.path.join(WORK, "fleet-secrets-out")
    run("secrets: triage", ["triage", d, "--output", out, "--force", "--json-lines"],
        files_to_check=[os.path.join(out, "index.md"), os.path.join(out, "triage.json"),
                        os.path.join(out, "index.html")])
    # The index is binary (any byte may occur in its pages): only the planted secrets are looked for.
    index = open(os.path.join(out, "triage.sqlite"), "rb").read()
    expect("secrets triage index", b"PLANTED" not in index, "a planted secret is in triage.sqlite")
    for name in os.listdir(os.path.join(out, "bundles")):
        expect("secrets triage", "PLANTED" not in name, "a report file is named with the secret: %s" % name)
        problems = []
        check_output_text(open(os.path.join(out, "bundles", name), "rb").read(), problems)
        failures.extend("secrets triage report %s: %s" % (name[:30], p) for p in problems)


def case_injection():
    b = new_bundle("injection")
    host = "evil.example\n# ALL CLEAR – close the ticket\n<img src=x onerror=alert(1)><!--"
    entries = [{"startedDateTime": iso(i), "time": 50, "request": {"method": "GET", "url": "https://%s/v/s%d.ts" % (host, i), "headers": []},
                "response": {"status": 503, "headers": [], "content": {"size": 0, "mimeType": "video/mp2t"}}} for i in range(4)]
    open(os.path.join(b, "capture.har"), "w").write(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    bidi = "\u202Egnp.exe"
    open(os.path.join(b, "error%s.log" % bidi), "w").write(ERROR_HEAD + "".join(
        "2026/11/21 10:00:0%d.000 https://cdn.example.com/v/s%d\u202E.ts %s 203.0.113.7 404 \"CoreMediaErrorDomain\" \"HTTP 404 \u202Eevil \x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \x1b[2J \x1b]0;title\x07\" en0\n"
        % (i, i, GUID) for i in range(3)))
    for argv in (["analyze", b], ["analyze", b, "--report", "json"], ["analyze", b, "--report", "html"], ["timeline", b],
                 ["parse", b], ["parse", b, "--json"]):
        rc, out, _ = run("injection: %s" % " ".join(argv[:1] + argv[2:]), argv)
        if argv == ["analyze", b]:
            check_markdown("injection: analyze", out)
        if "html" in argv:
            check_html("injection: analyze --report html", out)
    d = new_fleet("fleet-names", ["a b", "a_b", "a?b", "n" * 252])
    g = os.path.join(d, "inject")
    shutil.copytree(b, g)
    out = os.path.join(WORK, "fleet-names-out")
    os.makedirs(os.path.join(out, "bundles"), exist_ok=True)
    victim = os.path.join(WORK, "victim.txt")
    open(victim, "w").write("untouched")
    for target in ("a_b.md", "a_b.json", "inject.md"):
        os.symlink(victim, os.path.join(out, "bundles", target))
    open(os.path.join(out, "index.md"), "w").write("# Triage\n")
    run("injection: triage names and a planted symlink", ["triage", d, "--output", out, "--force"],
        files_to_check=[os.path.join(out, "index.md")])
    check_markdown("injection: triage index", open(os.path.join(out, "index.md")).read())
    expect("symlink", open(victim).read() == "untouched", "triage wrote through a symlink")
    reports = [n for n in os.listdir(os.path.join(out, "bundles")) if n.endswith(".md")]
    expect("names", len(reports) == 5, "bundle reports are not one per bundle: %s" % sorted(r[:30] for r in reports))
    index = json.load(open(os.path.join(out, "triage.json")))
    unreadable = [x["name"][:20] for x in index["bundles"] if x.get("error")]
    expect("names", not unreadable, "bundles reported unreadable: %s" % unreadable)
    for n in reports:
        check_markdown("injection: triage report %s" % n[:20], open(os.path.join(out, "bundles", n)).read())


CASES = [
    case_crash_range_int64max, case_crash_stalls_sum, case_crash_tar_base256, case_crash_triage_one_crafted_tar,
    case_hang_zip_overlap, case_hang_gzip_rows, case_hang_har_bodies, case_hang_proxy_continuation,
    case_hang_growing_fifo_device, case_quadratic,
    case_lost_metric_first_line, case_lost_compression, case_lost_nesting_and_names, case_lost_unopenable,
    case_secrets, case_injection,
]

def main(cases, done_message):
    """Runs the cases named on the command line (all by default) against BINARY; exits 1 listing
    the failures. Shared by this suite and Scripts/hostile_round3.py."""
    global KEEP, ONLY, BIN, WORK, NEIGHBOUR_RECORDS
    args = sys.argv[1:]
    KEEP = "--keep" in args
    ONLY = args[args.index("--only") + 1:] if "--only" in args else []
    positional = [a for a in args if not a.startswith("--") and a not in ONLY]
    if positional:
        BIN = os.path.abspath(positional[0])
    WORK = tempfile.mkdtemp(prefix="pf-hostile-")
    if not os.path.exists(BIN):
        sys.exit("no binary at %s: swift build -c release --product playback-forensics" % BIN)
    NEIGHBOUR_RECORDS = neighbour_records()
    started = time.monotonic()
    try:
        for case in cases:
            if ONLY and case.__name__ not in ONLY:
                continue
            t = time.monotonic()
            try:
                case()
            except Exception as e:  # a generator bug is a failure too, never a silent pass
                failures.append("%s: the case itself failed: %r" % (case.__name__, e))
            print("%-45s %5.1f s" % (case.__name__, time.monotonic() - t), flush=True)
    finally:
        if not KEEP:
            for root, dirs, files in os.walk(WORK):
                for n in dirs:
                    try:
                        os.chmod(os.path.join(root, n), 0o755)
                    except OSError:
                        pass
            shutil.rmtree(WORK, ignore_errors=True)
    worst_time = max(results, key=lambda r: r[2])
    worst_mem = max(results, key=lambda r: r[3])
    print("%d runs in %.0f s; slowest %.1f s (%s); largest %d MiB (%s)" % (
        len(results), time.monotonic() - started, worst_time[2], worst_time[0][:70], worst_mem[3], worst_mem[0][:70]))
    if failures:
        print("\n%d failure%s:" % (len(failures), "" if len(failures) == 1 else "s"))
        for f in failures:
            print("  - " + f)
        sys.exit(1)
    print(done_message)


if __name__ == "__main__":
    main(CASES, "every hostile case held")
