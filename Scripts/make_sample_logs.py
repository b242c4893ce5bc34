#!/usr/bin/env python3
"""Writes the SampleLogs/ bundles deterministically (same bytes every run).

Each bundle is a realistic support bundle for one ticket; the README of SampleLogs/ says what each
one should show. Run from the repository root: python3 Scripts/make_sample_logs.py
"""
import datetime as dt
import gzip
import io
import json
import os
import tarfile
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleLogs")
BASE = dt.datetime(2026, 11, 21, 10, 0, 0, tzinfo=dt.timezone.utc)


def iso(t, offset_hours=0):
    d = BASE + dt.timedelta(seconds=t) + dt.timedelta(hours=offset_hours)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)


def w3c(t, offset_hours=0):
    d = BASE + dt.timedelta(seconds=t) + dt.timedelta(hours=offset_hours)
    # Apple's quirk: the "fraction" repeats the seconds.
    return d.strftime("%Y/%m/%d %H:%M:%S") + ".%03d" % d.second


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def variant(bw):
    return {"peakBitRate": bw, "averageBitRate": int(bw * 0.9),
            "videoAttributes": {"videoRange": "SDR", "codecTypes": ["avc1"],
                                "presentationSize": {"width": 1920, "height": 1080}, "nominalFrameRate": 30}}


class Dump:
    def __init__(self, session):
        self.session = session
        self.lines = []

    def ev(self, type_, t, **kw):
        e = {"type": type_, "date": iso(t), "sessionID": self.session}
        e.update(kw)
        self.lines.append(json.dumps(e, separators=(",", ":")))

    def req(self, kind, url, t, dur, status=200, nbytes=None, headers=None, extra=None, error=None, server="203.0.113.7"):
        res = {"url": url, "serverAddress": server, "requestStartTime": iso(t), "requestEndTime": iso(t + 0.001),
               "responseStartTime": iso(t + dur * 0.6), "responseEndTime": iso(t + dur), "readFromCache": False,
               "errorEvent": error}
        tm = {"request": {"url": url, "httpMethod": "GET", "headers": {"X-Playback-Session-Id": self.session}},
              "response": {"statusCode": status, "headers": headers or {}}, "networkProtocolName": "h2",
              "isReusedConnection": True, "resourceFetchType": "network"}
        if nbytes is not None:
            tm["countOfResponseBodyBytesReceived"] = nbytes
        res["networkTransactionMetrics"] = {"taskInterval": {"start": iso(t), "duration": dur}, "redirectCount": 0,
                                            "transactionMetrics": [tm]}
        body = dict(extra or {})
        body["mediaResourceRequestEvent"] = res
        types = {"multivariant": "AVMetricHLSPlaylistRequestEvent", "playlist": "AVMetricHLSPlaylistRequestEvent",
                 "segment": "AVMetricHLSMediaSegmentRequestEvent", "key": "AVMetricContentKeyRequestEvent"}
        if kind in ("multivariant", "playlist"):
            body.update({"url": url, "isMultivariantPlaylist": kind == "multivariant", "mediaType": "vide"})
        if kind == "segment":
            body.setdefault("isMapSegment", False)
            body.update({"url": url, "mediaType": "vide"})
        self.ev(types[kind], t + dur, mediaTime=0, **body)

    def text(self):
        # A recorder writes events as they are emitted: in date order.
        return "\n".join(sorted(self.lines, key=lambda l: json.loads(l)["date"])) + "\n"


def access_log(rows, offset_hours=0, software="AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)",
               dumped=0):
    fields = ("date time uri cs-guid s-ip s-ip-changes sc-count c-duration-downloaded c-start-time c-duration-watched "
              "bytes c-observed-bitrate sc-indicated-bitrate c-stalls c-frames-dropped c-startup-time c-overdue c-reason "
              "c-observed-min-bitrate c-observed-max-bitrate c-observed-bitrate-sd s-playback-type sc-wwan-count "
              "c-switch-bitrate")
    out = ["#Version: 1.0", "#Software: " + software, "#Date: " + w3c(dumped, offset_hours), "#Fields: " + fields]
    for r in rows:
        out.append(" ".join(str(x) for x in [w3c(r["t"], offset_hours)] + r["cols"]))
    return "\n".join(out) + "\n"


def error_log(rows, offset_hours=0):
    out = ["#Version: 1.0", "#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)",
           "#Date: " + w3c(0, offset_hours), "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype"]
    for t, uri, guid, status, domain, comment in rows:
        out.append('%s %s %s 203.0.113.7 %d "%s" "%s" en0' % (w3c(t, offset_hours), uri, guid, status, domain, comment))
    return "\n".join(out) + "\n"


def har(entries):
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "Charles Proxy", "version": "4.6.7"},
                               "pages": [], "entries": entries}}, indent=1).encode()


def har_entry(t, url, status, total_ms, session, body=None, mime="video/mp2t", encoding=None, size=0, offset=0.0,
              extra_request_headers=None):
    content = {"size": size, "mimeType": mime}
    if body is not None:
        content["text"] = body
        content["size"] = len(body)
    resp_headers = [{"name": "Content-Type", "value": mime}]
    if encoding:
        resp_headers.append({"name": "Content-Encoding", "value": encoding})
    req_headers = [{"name": "X-Playback-Session-Id", "value": session},
                   {"name": "User-Agent", "value": "AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)"}]
    req_headers += extra_request_headers or []
    return {"startedDateTime": iso(t + offset), "time": total_ms,
            "request": {"method": "GET", "url": url, "httpVersion": "HTTP/2", "headers": req_headers,
                        "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
            "response": {"status": status, "statusText": "", "httpVersion": "HTTP/2", "headers": resp_headers,
                         "cookies": [], "content": content, "redirectURL": "", "headersSize": -1, "bodySize": content["size"]},
            "cache": {}, "timings": {"send": 0, "wait": total_ms * 0.7, "receive": total_ms * 0.3},
            "serverIPAddress": "203.0.113.7"}


MASTER = """#EXTM3U
#EXT-X-VERSION:6
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-STREAM-INF:BANDWIDTH=20000000,AVERAGE-BANDWIDTH=18000000,CODECS="avc1.640033,mp4a.40.2",RESOLUTION=3840x2160,FRAME-RATE=30.000
v20/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=15000000,AVERAGE-BANDWIDTH=13500000,CODECS="avc1.640032,mp4a.40.2",RESOLUTION=2560x1440,FRAME-RATE=30.000
v15/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=8000000,AVERAGE-BANDWIDTH=7200000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=30.000
v8/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2700000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000
v3/index.m3u8
"""


def media_playlist(n, key=False):
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:0",
             "#EXT-X-PLAYLIST-TYPE:VOD", '#EXT-X-MAP:URI="init.mp4"']
    if key:
        lines.append('#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-42",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"')
    for i in range(1, n + 1):
        lines += ["#EXTINF:6.000,", "s%d.m4s" % i]
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"


def write(path, data):
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def slow_key_startup():
    """Seed story 1: ~2 s startup, most of it waiting for the FairPlay key."""
    sid = "6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10"
    cdn = "https://cdn.example.com/movies/ep42"
    d = Dump(sid)
    d.ev("AVMetricPlayerItemRateChangeEvent", 0.000, rate=1.0, previousRate=0.0, mediaTime=0)
    d.req("multivariant", cdn + "/master.m3u8", 0.020, 0.100, nbytes=2311, headers={"Content-Encoding": "gzip"})
    d.req("playlist", cdn + "/v20/index.m3u8", 0.130, 0.058, nbytes=1830, headers={"Content-Encoding": "gzip"})
    d.req("key", "https://keys.example.com/fps?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2aWV3ZXIifQ.c2lnbmF0dXJl", 0.190, 1.465,
          extra={"contentKeySpecifier": {"keySystem": "FairPlayStreaming", "identifier": "skd://key-42"},
                 "mediaType": "vide", "isClientInitiated": False})
    d.req("segment", cdn + "/v20/init.mp4", 0.200, 0.060, nbytes=1200,
          extra={"isMapSegment": True, "indexFileURL": cdn + "/v20/index.m3u8"})
    d.req("segment", cdn + "/v20/s1.m4s", 1.660, 0.330, nbytes=15000000,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v20/index.m3u8"})
    d.ev("AVMetricPlayerItemInitialLikelyToKeepUpEvent", 2.050, mediaTime=0, variant=variant(20000000), timeTaken=2.03,
         loadedTimeRanges=[{"start": 0, "duration": 6}])
    t = 2.0
    for i in range(2, 20):
        d.req("segment", cdn + "/v20/s%d.m4s" % i, t, 0.9, nbytes=15000000,
              extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v20/index.m3u8"})
        t += 6.0
    d.ev("AVMetricPlayerItemRateChangeEvent", 114.0, rate=0.0, previousRate=1.0, mediaTime=112)
    d.ev("AVMetricPlayerItemPlaybackSummaryEvent", 114.5, errorEvent=None, recoverableErrorCount=0, stallCount=0,
         variantSwitchCount=0, playbackDuration=112, mediaResourceRequestCount=22, timeSpentRecoveringFromStall=0,
         timeSpentInInitialStartup=2.03, timeWeightedAverageBitrate=20000000, timeWeightedPeakBitrate=20000000)
    write("slow-key-startup/metrics.jsonl", d.text())
    write("slow-key-startup/master.m3u8", MASTER)
    write("slow-key-startup/v20-index.m3u8", media_playlist(19, key=True))
    write("slow-key-startup/access.log", access_log([
        {"t": 2, "cols": [cdn + "/v20/index.m3u8", sid, "203.0.113.7", 0, 21, "114.000", "0.000", "112.000",
                          315001200, "133000000.000", 20000000, 0, 0, "2.030", 0, "-", "90000000.000",
                          "150000000.000", "-", "VOD", 0, 20000000]}]))


def cdn_404_stall():
    """Seed story 2: 404 on 20 Mbit/s → 15 Mbit/s → 404 again → stall."""
    sid = "2D5C8F04-9F34-40F2-AA06-758CE4EC3643"
    cdn = "https://edge7.cdn.example.net/live/event"
    d = Dump(sid)
    d.ev("AVMetricPlayerItemRateChangeEvent", 0.000, rate=1.0, previousRate=0.0, mediaTime=0)
    d.req("multivariant", cdn + "/master.m3u8", 0.010, 0.080, nbytes=1900, headers={"Content-Encoding": "gzip"})
    d.req("playlist", cdn + "/v20/index.m3u8", 0.100, 0.070, nbytes=3100, headers={"Content-Encoding": "gzip"})
    d.req("segment", cdn + "/v20/init.mp4", 0.180, 0.050, nbytes=1100,
          extra={"isMapSegment": True, "indexFileURL": cdn + "/v20/index.m3u8"})
    d.req("segment", cdn + "/v20/s1.m4s", 0.240, 0.600, nbytes=15000000,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v20/index.m3u8"})
    d.ev("AVMetricPlayerItemInitialLikelyToKeepUpEvent", 0.900, mediaTime=0, variant=variant(20000000), timeTaken=0.89)
    t = 1.0
    for i in range(2, 74):
        d.req("segment", cdn + "/v20/s%d.m4s" % i, t, 1.1, nbytes=15000000,
              extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v20/index.m3u8"})
        t += 6.0
    # 07:24 — the 20 Mbit/s variant's next segment is missing.
    e404 = {"didRecover": True, "error": {"domain": "CoreMediaErrorDomain", "code": -12938,
                                           "localizedDescription": "HTTP 404: File Not Found"}}
    d.req("segment", cdn + "/v20/s74.m4s", 444.0, 0.045, status=404, nbytes=0, error=e404,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v20/index.m3u8"})
    d.ev("AVMetricErrorEvent", 444.1, didRecover=True, error=e404["error"])
    d.ev("AVMetricPlayerItemVariantSwitchStartEvent", 444.3, fromVariant=variant(20000000), toVariant=variant(15000000))
    d.req("playlist", cdn + "/v15/index.m3u8", 444.3, 0.060, nbytes=3100, headers={"Content-Encoding": "gzip"})
    d.req("segment", cdn + "/v15/s74.m4s", 444.4, 0.8, nbytes=11000000,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v15/index.m3u8"})
    d.ev("AVMetricPlayerItemVariantSwitchEvent", 445.0, fromVariant=variant(20000000), toVariant=variant(15000000),
         didSucceed=True)
    # 07:28 — the 15 Mbit/s variant's next segment is missing too.
    d.req("segment", cdn + "/v15/s75.m4s", 448.0, 0.050, status=404, nbytes=0, error=e404,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v15/index.m3u8"})
    d.ev("AVMetricErrorEvent", 448.1, didRecover=True, error=e404["error"])
    d.req("segment", cdn + "/v15/s75.m4s", 449.5, 0.050, status=404, nbytes=0, error=e404,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v15/index.m3u8"})
    # 07:31 — out of buffer.
    d.ev("AVMetricPlayerItemStallEvent", 451.002, mediaTime={"value": 451000, "timescale": 1000, "flags": 1, "epoch": 0},
         rate=0.0, previousRate=1.0, variant=variant(15000000))
    d.req("segment", cdn + "/v15/s76.m4s", 452.0, 0.9, nbytes=11000000,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v15/index.m3u8"})
    d.ev("AVMetricPlayerItemLikelyToKeepUpEvent", 455.1, mediaTime=451, variant=variant(15000000), timeTaken=4.1)
    d.ev("AVMetricPlayerItemRateChangeEvent", 600.0, rate=0.0, previousRate=1.0, mediaTime=595)
    d.ev("AVMetricPlayerItemPlaybackSummaryEvent", 600.2, errorEvent=None, recoverableErrorCount=3, stallCount=1,
         variantSwitchCount=1, playbackDuration=595, mediaResourceRequestCount=84, timeSpentRecoveringFromStall=4.1,
         timeSpentInInitialStartup=0.89, timeWeightedAverageBitrate=19000000, timeWeightedPeakBitrate=20000000)
    write("cdn-404-stall/metrics.jsonl.gz", gz(d.text().encode()))
    # The error log, in the device's local time (UTC+1).
    write("cdn-404-stall/errorlog.txt", error_log([
        (444.0, cdn + "/v20/s74.m4s", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
        (448.0, cdn + "/v15/s75.m4s", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
        (449.0, cdn + "/v15/s75.m4s", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
    ], offset_hours=1))
    write("cdn-404-stall/accesslog.txt", access_log([
        {"t": 0, "cols": [cdn + "/v20/index.m3u8", sid, "203.0.113.7", 0, 75, "444.000", "0.000", "443.100",
                          1110000000, "110000000.000", 20000000, 0, 0, "0.890", 0, "-", "80000000.000",
                          "140000000.000", "-", "LIVE", 0, 20000000]},
        {"t": 445, "cols": [cdn + "/v15/index.m3u8", sid, "203.0.113.7", 0, 9, "30.000", "444.000", "151.900",
                            99000000, "98000000.000", 15000000, 1, 0, "-", 1, 2, "70000000.000", "120000000.000",
                            "-", "LIVE", 0, 15000000]},
    ], offset_hours=1))
    # A Charles capture on the same Wi-Fi, its clock 93.4 s ahead of the device.
    off = 93.4
    entries = [
        har_entry(0.010, cdn + "/master.m3u8", 200, 80, sid, body=MASTER, mime="application/vnd.apple.mpegurl",
                  encoding="gzip", offset=off),
        har_entry(0.100, cdn + "/v20/index.m3u8", 200, 70, sid, body=media_playlist(80),
                  mime="application/vnd.apple.mpegurl", encoding="gzip", offset=off),
        har_entry(0.240, cdn + "/v20/s1.m4s", 200, 600, sid, size=15000000, mime="video/mp4", offset=off),
        har_entry(444.0, cdn + "/v20/s74.m4s", 404, 45, sid, size=0, mime="text/html", offset=off),
        har_entry(444.3, cdn + "/v15/index.m3u8", 200, 60, sid, body=media_playlist(80),
                  mime="application/vnd.apple.mpegurl", encoding="gzip", offset=off),
        har_entry(448.0, cdn + "/v15/s75.m4s", 404, 50, sid, size=0, mime="text/html", offset=off),
        har_entry(449.5, cdn + "/v15/s75.m4s", 404, 50, sid, size=0, mime="text/html", offset=off),
    ]
    write("cdn-404-stall/charles-capture.har.gz", gz(har(entries)))


KTV_TAG = {
    "server": "KTVHCHTTPServer        ", "conn": "KTVHCHTTPConnection    ", "req": "KTVHCDataRequest       ",
    "resp": "KTVHCDataResponse      ", "http": "KTVHCHTTPResponse      ", "dl": "KTVHCDownload          ",
    "net": "KTVHCDataNetworkSource ", "file": "KTVHCDataFileSource    ", "macro": "KTVHCMacro            ",
    "mgr": "KTVHCDataSourceManager ",
}


def ktv(t, tag, msg):
    stamp = (BASE + dt.timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S +0000")
    return "%s  %s :   %s" % (stamp, KTV_TAG[tag], msg)


def proxy_octet_stream():
    """A short-video app behind KTVHTTPCache: octet-stream from an extension-less URL, an origin
    404, and the proxy socket dying while the screen was locked."""
    sid = "9A1E44C2-7D3B-4C55-8E21-0F6A2B9C1D77"
    origin = "https://media.example.com/v/clip42"
    proxy = ("http://localhost:52814/https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fv%2Fclip42/"
             "KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent")
    lines = [
        ktv(0, "macro", "play start item=42 screen=feed"),
        "%s  <KTVHCHTTPServer: 0x2811c4f60>  :   alloc" % (BASE.strftime("%Y-%m-%d %H:%M:%S +0000")),
        ktv(0, "server", "0x2811c4f60, Start server success"),
        ktv(0, "server", "0x2811c4f60, Return URL\nURL : " + proxy),
        ktv(0, "conn", "0x2837f0a80, Receive request\nmethod : GET\npath : /https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fv%2Fclip42/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent\nURL : /https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fv%2Fclip42/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent -- http://localhost:52814/"),
        ktv(0, "conn", "0x2837f0a80, Accept request\nURL : " + origin),
        ktv(0, "req", "0x280d2c3c0 Create data request\nURL : %s\nHeaders : {\n\tHost = localhost:52814;\n\tX-Playback-Session-Id = %s;\n\tRange = bytes=0-1;\n\tAccept = */*;\n\tUser-Agent = AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us);\n}\n\nRange : Range : {0, 1}" % (origin, sid)),
        ktv(0, "net", "0x2835e8c60, Create network source\nrequest : <KTVHCDataRequest: 0x280d2c780>\nrange : Range : {0, 1}"),
        ktv(0, "dl", "0x2804f1e30, Add Request\nrequest : <KTVHCDataRequest: 0x280d2c780>\nURL : %s\nheaders : {\n    Range = \"bytes=0-1\";\n    \"X-Playback-Session-Id\" = \"%s\";\n}\nHTTPRequest headers : {\n    Range = \"bytes=0-1\";\n}\nCount : 1" % (origin, sid)),
        ktv(1, "resp", "0x280f31a40 Create data response\nURL : %s\nHeaders : {\n\tAccept-Ranges = bytes;\n\tContent-Length = 2;\n\tContent-Range = bytes 0-1/5510872;\n\tContent-Type = application/octet-stream;\n}\ncontentType : application/octet-stream\ntotalLength : 5510872\ncurrentLength : 2" % origin),
        ktv(1, "dl", "0x2804f1e30, Receive response\nrequest : <KTVHCDataRequest: 0x280d2c780>\nresponse : <KTVHCDataResponse: 0x280f31a40>\nHTTPResponse : <NSHTTPURLResponse: 0x2837c4a20> { URL: %s } { Status Code: 206, Headers {\n\tContent-Type = (\n\t\tapplication/octet-stream\n\t);\n} }" % origin),
        ktv(1, "http", "0x2819e5b00, Content length : 5510872"),
        ktv(1, "dl", "0x2804f1e30, Complete\nError : (null)"),
        ktv(1, "net", "0x2835e8c60, Complete and finisehed"),
        ktv(1, "http", "0x2819e5b00, Connection did closed : 2, 2"),
        # A thumbnail preview request whose origin answers 404.
        ktv(3, "dl", "0x2804f1e30, Add Request\nrequest : <KTVHCDataRequest: 0x280d2c990>\nURL : https://media.example.com/v/clip43-preview.mp4\nheaders : {\n    Range = \"bytes=0-\";\n}\nHTTPRequest headers : {\n    Range = \"bytes=0-\";\n}\nCount : 1"),
        ktv(3, "dl", "0x2804f1e30, Invaild response\nError : Error Domain=KTVHTTPCache error Code=-192703 \"(null)\" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/v/clip43-preview.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4b80> { URL: https://media.example.com/v/clip43-preview.mp4 } { Status Code: 404, Headers {\n\tContent-Type = (\n\t\ttext/html\n\t);\n} }}"),
        ktv(3, "mgr", "failure, -192703"),
        # Screen locked at 10:02; back at 10:09: the ping fails, the server restarts.
        ktv(540, "server", "0x2811c4f60, ping server"),
        ktv(540, "server", "0x2811c4f60, Start server success"),
        ktv(541, "conn", "0x2837f0b20, Accept request\nURL : " + origin),
    ]
    write("proxy-octet-stream/KTVHTTPCache.log", "\n".join(lines) + "\n")
    d = Dump(sid)
    d.ev("AVMetricPlayerItemRateChangeEvent", 0.0, rate=1.0, previousRate=0.0, mediaTime=0)
    err = {"didRecover": False, "error": {"domain": "AVFoundationErrorDomain", "code": -11828,
                                           "localizedDescription": "Cannot Open: This media format is not supported."}}
    d.ev("AVMetricMediaResourceRequestEvent", 1.2, url=proxy, requestStartTime=iso(0.0), responseEndTime=iso(1.2),
         networkTransactionMetrics={"transactionMetrics": [{"response": {"statusCode": 206, "headers": {"Content-Type": "application/octet-stream"}}}]})
    d.ev("AVMetricErrorEvent", 1.3, didRecover=False, error=err["error"])
    d.ev("AVMetricMediaResourceRequestEvent", 538.2, url=proxy, requestStartTime=iso(538.0), responseEndTime=iso(538.2),
         errorEvent={"didRecover": True, "error": {"domain": "NSURLErrorDomain", "code": -1004,
                                                    "localizedDescription": "Could not connect to the server."}})
    d.ev("AVMetricPlayerItemPlaybackSummaryEvent", 545.0, errorEvent=err, recoverableErrorCount=1, stallCount=0,
         variantSwitchCount=0, playbackDuration=0, mediaResourceRequestCount=2)
    write("proxy-octet-stream/player-metrics.json", json.dumps({"sessionID": sid, "events": [json.loads(l) for l in d.lines]}, indent=2))


def clean_session():
    """A good session: quick start, no stalls; delivered as a .zip."""
    sid = "F0E1D2C3-B4A5-4968-8776-655443322110"
    cdn = "https://cdn.example.com/series/s01e03"
    d = Dump(sid)
    d.ev("AVMetricPlayerItemRateChangeEvent", 0.0, rate=1.0, previousRate=0.0, mediaTime=0)
    d.req("multivariant", cdn + "/master.m3u8", 0.010, 0.060, nbytes=2100, headers={"Content-Encoding": "gzip"})
    d.req("playlist", cdn + "/v8/index.m3u8", 0.080, 0.050, nbytes=2400, headers={"Content-Encoding": "gzip"})
    d.req("segment", cdn + "/v8/init.mp4", 0.140, 0.030, nbytes=900,
          extra={"isMapSegment": True, "indexFileURL": cdn + "/v8/index.m3u8"})
    d.req("segment", cdn + "/v8/s1.m4s", 0.180, 0.400, nbytes=6000000,
          extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v8/index.m3u8"})
    d.ev("AVMetricPlayerItemInitialLikelyToKeepUpEvent", 0.650, mediaTime=0, variant=variant(8000000), timeTaken=0.64)
    t = 1.0
    for i in range(2, 30):
        d.req("segment", cdn + "/v8/s%d.m4s" % i, t, 0.5, nbytes=6000000,
              extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v8/index.m3u8"})
        t += 6.0
    d.ev("AVMetricPlayerItemVariantSwitchStartEvent", 30.0, fromVariant=variant(8000000), toVariant=variant(15000000))
    d.ev("AVMetricPlayerItemVariantSwitchEvent", 31.0, fromVariant=variant(8000000), toVariant=variant(15000000), didSucceed=True)
    d.ev("AVMetricPlayerItemRateChangeEvent", 180.0, rate=0.0, previousRate=1.0, mediaTime=179)
    d.ev("AVMetricPlayerItemPlaybackSummaryEvent", 180.1, errorEvent=None, recoverableErrorCount=0, stallCount=0,
         variantSwitchCount=1, playbackDuration=179, mediaResourceRequestCount=31, timeSpentRecoveringFromStall=0,
         timeSpentInInitialStartup=0.64, timeWeightedAverageBitrate=14300000, timeWeightedPeakBitrate=15000000)
    acc = access_log([
        {"t": 0, "cols": [cdn + "/v8/index.m3u8", sid, "203.0.113.9", 0, 6, "36.000", "0.000", "30.350", 36000900,
                          "96000000.000", 8000000, 0, 0, "0.640", 0, "-", "80000000.000", "110000000.000", "-", "VOD",
                          0, 8000000]},
        {"t": 31, "cols": [cdn + "/v15/index.m3u8", sid, "203.0.113.9", 0, 25, "150.000", "30.000", "148.650",
                           281250000, "96000000.000", 15000000, 0, 0, "-", 0, 1, "80000000.000", "110000000.000",
                           "-", "VOD", 0, 15000000]},
    ])
    entries = [har_entry(0.010, cdn + "/master.m3u8", 200, 60, sid, body=MASTER.replace("v20/index", "v20x/index"),
                         mime="application/vnd.apple.mpegurl", encoding="gzip", offset=-2.25)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [("clean-session/metrics.jsonl", d.text()), ("clean-session/access.log", acc),
                           ("clean-session/proxyman.har", har(entries).decode())]:
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 21, 10, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    write("clean-session.zip", buf.getvalue())


def three_sessions():
    """Three videos watched one after the other, interleaved across a metric dump, an access log,
    an error log, a HAR capture and a proxy log; delivered as a .tar.gz."""
    sids = ["11111111-AAAA-4AAA-8AAA-111111111111", "22222222-BBBB-4BBB-8BBB-222222222222",
            "33333333-CCCC-4CCC-8CCC-333333333333"]
    d_lines = []
    acc_rows = []
    err_rows = []
    har_entries = []
    ktv_lines = []
    for n, sid in enumerate(sids):
        base = n * 300.0
        cdn = "https://cdn.example.com/clips/c%d" % (n + 1)
        d = Dump(sid)
        d.req("multivariant", cdn + "/master.m3u8", base + 0.01, 0.05, nbytes=2000, headers={"Content-Encoding": "gzip"})
        d.req("playlist", cdn + "/v8/index.m3u8", base + 0.07, 0.05, nbytes=2000, headers={"Content-Encoding": "gzip"})
        d.req("segment", cdn + "/v8/s1.m4s", base + 0.13, 0.40, nbytes=6000000,
              extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v8/index.m3u8"})
        d.ev("AVMetricPlayerItemInitialLikelyToKeepUpEvent", base + 0.6, mediaTime=0, variant=variant(8000000))
        if n == 1:
            e = {"didRecover": True, "error": {"domain": "CoreMediaErrorDomain", "code": -12938,
                                                "localizedDescription": "HTTP 404: File Not Found"}}
            d.req("segment", cdn + "/v8/s9.m4s", base + 48.0, 0.04, status=404, nbytes=0, error=e,
                  extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v8/index.m3u8"})
            err_rows.append((base + 48.0, cdn + "/v8/s9.m4s", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"))
        d.ev("AVMetricPlayerItemRateChangeEvent", base + 120.0, rate=0.0, previousRate=1.0, mediaTime=119)
        d_lines += d.lines
        acc_rows.append({"t": base, "cols": [cdn + "/v8/index.m3u8", sid, "203.0.113.9", 0, 20, "120.000", "0.000",
                                             "119.400", 120000000, "96000000.000", 8000000, 0, 0, "0.590", 0, "-",
                                             "80000000.000", "110000000.000", "-", "VOD", 0, 8000000]})
        har_entries.append(har_entry(base + 0.01, cdn + "/master.m3u8", 200, 50, sid, body=MASTER,
                                     mime="application/vnd.apple.mpegurl", encoding="gzip", offset=-1.5))
        har_entries.append(har_entry(base + 0.13, cdn + "/v8/s1.m4s", 200, 400, sid, size=6000000, mime="video/mp4",
                                     offset=-1.5))
        ktv_lines.append(ktv(base + 0.2, "conn", "0x2837f0a%d0, Accept request\nURL : %s/v8/s1.m4s" % (n, cdn)))
        ktv_lines.append(ktv(base + 0.2, "file", "0x2805d8e%d0, Create file source\npath : /var/mobile/Documents/KTVHTTPCache/c%d/c%d_0_0\nrange : Range : {0, 5999999}\nreadRange : Range : {0, 5999999}" % (n, n, n)))
    # Interleave the dump lines by time, as a real multi-item recorder would.
    d_lines.sort(key=lambda l: json.loads(l)["date"])
    files = {
        "support-bundle/metrics.jsonl": "\n".join(d_lines) + "\n",
        "support-bundle/logs/access.log": access_log(acc_rows),
        "support-bundle/logs/error.log": error_log(err_rows),
        "support-bundle/capture.har": har(har_entries).decode(),
        "support-bundle/KTVHTTPCache.log": "\n".join(ktv_lines) + "\n",
    }
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, text in sorted(files.items()):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1795255200
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    write("three-sessions.tar.gz", gz(buf.getvalue()))


def access_error_logs_only():
    """What most tickets carry: only AVPlayerItem's access and error logs, from a device at UTC-5,
    with the app dumping the cumulative access log twice into one file. 404s on the 12 Mbit/s
    variant, a new row at 8 Mbit/s two seconds later counting 2 stalls, and its observed throughput
    still above the variant's bitrate."""
    sid = "4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B5A"
    cdn = "https://edge3.cdn.example.org/vod/show12"
    software = "AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)"
    first = {"t": 0, "cols": [cdn + "/v12/prog_index.m3u8", sid, "198.51.100.23", 0, 52, "312.000", "0.000", "300.400",
                              450000000, "40500000.000", 12000000, 0, 0, "1.310", 0, "-", "21000000.000",
                              "56000000.000", "-", "VOD", 0, 12000000]}
    lower = {"t": 302, "cols": [cdn + "/v8/prog_index.m3u8", sid, "198.51.100.23", 0, 31, "186.000", "300.400", "176.900",
                                210000000, "9500000.000", 8000000, 2, 14, "-", 3, 2, "2100000.000", "31000000.000",
                                "-", "VOD", 0, 8000000]}
    # The first dump, written when the errors came in; the second when the viewer left.
    early = dict(lower, cols=list(lower["cols"]))
    early["cols"][5:8] = ["6.000", "300.400", "1.100"]
    early["cols"][8:12] = [6500000, "9100000.000", 8000000, 1]
    write("access-error-logs-only/accesslog.txt",
          access_log([first, early], offset_hours=-5, software=software, dumped=305)
          + access_log([first, lower], offset_hours=-5, software=software, dumped=481))
    write("access-error-logs-only/errorlog.txt", error_log([
        (299.0, cdn + "/v12/seg_51.ts", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
        (300.0, cdn + "/v12/seg_52.ts", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
        (303.0, cdn + "/v8/seg_52.ts", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
        (304.0, cdn + "/v8/seg_52.ts", sid, -12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found"),
    ], offset_hours=-5))


def ktvhttpcache_2x_ijkplayer():
    """An ijkplayer app behind KTVHTTPCache 2.0.1, as pasted from the Xcode console of a device at
    UTC+8: the proxy's lines mixed with ijkplayer's, the app's own NSLog lines and CFNetwork's.
    After a seek the CDN answers 404 for the new range (2.x code -192700), ijkplayer buffers until
    a retry succeeds; later the viewer replays from the start after the cache unit was deleted to
    make room, and the first megabyte is downloaded again."""
    origin = "https://v3.cdn.example.cn/sv/8c1d2e/8c1d2e.mp4"
    enc = "https%3A%2F%2Fv3.cdn.example.cn%2Fsv%2F8c1d2e%2F8c1d2e.mp4"
    path = "/request.mp4?url=" + enc
    start = dt.datetime(2026, 11, 21, 18, 0, 0)

    def line(t, body):
        d = start + dt.timedelta(seconds=t)
        return d.strftime("%Y-%m-%d %H:%M:%S.") + "%06d+0800 ShortVideo[5359:409058] %s" % (int(round((t % 1) * 1e6)), body)

    def k(t, tag, msg):
        return line(t, "%s  :   %s" % (tag.ljust(22), msg))

    def player_request(t, conn, req, rng):
        return [
            k(t, "KTVHCHTTPConnection", "%s, Receive request\nmethod : GET\npath : %s\nURL : %s -- http://localhost:80/" % (conn, path, path)),
            k(t, "KTVHCDataRequest", "%s Create data request\nURL : %s\nHeaders : {\n\tAccept = */*;\n\tHost = localhost;\n\tConnection = close;\n\tRange = bytes=%d-;\n\tIcy-MetaData = 1;\n\tUser-Agent = ijkplayer;\n}\n\nRange : Range : {%d, 9223372036854775807}" % (req, origin, rng, rng)),
        ]

    def download(t, net, req, rng_start, rng_end):
        return [
            k(t, "KTVHCDataNetworkSource", "%s, Create network source\nrequest : <KTVHCDataRequest: %s>\nrange : Range : {%d, %d}" % (net, req, rng_start, rng_end)),
            k(t, "KTVHCDownload", "0x2804f1e30, Add Request\nrequest : <KTVHCDataRequest: %s>\nURL : %s\nheaders : {\n    Range = \"bytes=%d-%d\";\n    \"User-Agent\" = ijkplayer;\n}\nHTTPRequest headers : {\n    Range = \"bytes=%d-%d\";\n    \"User-Agent\" = ijkplayer;\n}\nCount : 1" % (req, origin, rng_start, rng_end, rng_start, rng_end)),
        ]

    def ok_response(t, net, req, length):
        return [
            k(t, "KTVHCDownload", "0x2804f1e30, Receive response\nrequest : <KTVHCDataRequest: %s>\nresponse : <KTVHCDataResponse: 0x2806e9b80>\nHTTPResponse : {\n    \"Accept-Ranges\" = bytes;\n    \"Content-Length\" = %d;\n    \"Content-Type\" = \"video/mp4\";\n    Server = Tengine;\n}" % (req, length)),
            k(t + 0.4, "KTVHCDataNetworkSource", "%s, Receive data : %d, %d, %d" % (net, length, length, length)),
            k(t + 0.4, "KTVHCDownload", "0x2804f1e30, Complete\nError : (null)"),
            k(t + 0.4, "KTVHCDataNetworkSource", "%s, Complete and finisehed" % net),
        ]

    lines = [
        line(0.0, "[Feed] play item 42 (autoplay)"),
        k(0.01, "KTVHCHTTPServer", "0x2811c4f60, Start server success"),
        k(0.02, "KTVHCHTTPServer", "0x2811c4f60, Return URL\nURL : http://localhost:80/request.mp4?url=" + enc),
        line(0.05, "IJKFFMoviePlayerController: prepareToPlay"),
    ]
    lines += player_request(0.10, "0x2837f0a80", "0x282bf3cc0", 0)
    lines += [k(0.10, "KTVHCHTTPResponse", "0x2835b0c60, Create response\nrequest : <KTVHCDataRequest: 0x282bf3cc0>")]
    lines += download(0.11, "0x2835e8c60", "0x280d2c780", 0, 1048575)
    lines += ok_response(0.35, "0x2835e8c60", "0x280d2c780", 1048576)
    lines += [
        line(0.90, "FFP_MSG_PREPARED:"),
        line(0.95, "FFP_MSG_VIDEO_RENDERING_START:"),
        line(0.96, "[Feed] first frame after 0.96 s"),
        # The viewer seeks to 4 MiB: the edge has not got that range and answers 404.
        line(12.00, "FFP_MSG_SEEK_COMPLETE:"),
        k(12.00, "KTVHCHTTPResponse", "0x2835b0c60, Connection did closed : 9514768, 1048576"),
        line(12.01, "Task <61A3EA30-B364-470F-A4DE-643FFD509D5B>.<2> finished with error - code: -999"),
    ]
    lines += player_request(12.02, "0x2837f0b20", "0x282bf3d80", 4194304)
    lines += [k(12.02, "KTVHCHTTPResponse", "0x2835b0d00, Create response\nrequest : <KTVHCDataRequest: 0x282bf3d80>")]
    lines += download(12.03, "0x2835e9d10", "0x280d2c990", 4194304, 9514767)
    err = ("Error Domain=KTVHTTPCache error Code=-192700 \"(null)\" UserInfo={KTVHCErrorUserInfoKeyRequest=<NSMutableURLRequest: 0x281a06c20> { URL: %s }, "
           "KTVHCErrorUserInfoKeyURL=%s, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x281fdb340> { URL: %s } { Status Code: 404, Headers {\n"
           "    \"Content-Length\" =     (\n        548\n    );\n    \"Content-Type\" =     (\n        \"text/html\"\n    );\n    Server =     (\n        Tengine\n    );\n} }}") % (origin, origin, origin)
    lines += [
        k(12.20, "KTVHCDownload", "0x2804f1e30, Invaild response\nError : " + err),
        k(12.20, "KTVHCDownload", "0x2804f1e30, Complete\nError : Error Domain=NSURLErrorDomain Code=-999 \"cancelled\" UserInfo={NSErrorFailingURLStringKey=%s}" % origin),
        k(12.20, "KTVHCDataNetworkSource", "0x2835e9d10, Callback for failed\nError : " + err),
        k(12.20, "KTVHCDataSourceManager", "failure, -192700"),
        k(12.21, "KTVHCDataSourceManager", "0x2836a1b80, Callback for network source failed - Begin\nError : " + err),
        k(12.21, "KTVHCHTTPResponse", "0x2835b0d00, Failed\nError : " + err),
        line(12.40, "FFP_MSG_BUFFERING_START:\n"),
        line(12.40, "loadStateDidChange: IJKMPMovieLoadStateStalled: 4\n"),
        line(12.41, "[Feed] buffering item 42"),
    ]
    # ijkplayer reconnects 3 s later; the edge has the range by then.
    lines += player_request(15.50, "0x2837f0c40", "0x282bf3e40", 4194304)
    lines += [k(15.50, "KTVHCHTTPResponse", "0x2835b0da0, Create response\nrequest : <KTVHCDataRequest: 0x282bf3e40>")]
    lines += download(15.51, "0x2835ea000", "0x280d2ca50", 4194304, 5242879)
    lines += ok_response(15.80, "0x2835ea000", "0x280d2ca50", 1048576)
    lines += [
        line(16.60, "FFP_MSG_BUFFERING_END:\n"),
        line(16.60, "loadStateDidChange: IJKMPMovieLoadStatePlaythroughOK: 3\n"),
        # The cache (max 20 MB in this app) is full: the unit is deleted to make room for another video.
        k(40.00, "KTVHCDataUnit", "0x2839a0b40, Delete Unit\nUnit : <KTVHCDataUnit: 0x2839a0b40>\nFunc : -[KTVHCDataUnitPool deleteUnitsWithLength:]"),
        line(41.00, "[Feed] replay item 42 from the start"),
    ]
    lines += player_request(41.10, "0x2837f0d60", "0x282bf3f00", 0)
    lines += [k(41.10, "KTVHCHTTPResponse", "0x2835b0e40, Create response\nrequest : <KTVHCDataRequest: 0x282bf3f00>")]
    lines += download(41.11, "0x2835ea0f0", "0x280d2cb10", 0, 1048575)
    lines += ok_response(41.40, "0x2835ea0f0", "0x280d2cb10", 1048576)
    lines += [line(42.00, "FFP_MSG_VIDEO_RENDERING_START:")]
    write("ktvhttpcache-2x-ijkplayer/console.log", "\n".join(lines) + "\n")


CLOUDFRONT_FIELDS = ("date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) "
                     "cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header "
                     "cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher "
                     "x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port "
                     "time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start "
                     "sc-range-end")


def cloudfront_row(end, pop, nbytes, ip, path, status, result, rid, taken, ttfb, detailed=None, ua="AppleCoreMedia/1.0.0.22B83%20(iPhone;%20U;%20CPU%20OS%2018_1%20like%20Mac%20OS%20X;%20en_us)",
                   query="-", host="video.example.com", ctype="video/mp4"):
    """One CloudFront standard-log row: written when the response ended, UTC, to the second."""
    stamp = dt.datetime(2026, 11, 21, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=10 * 3600 + end)
    cells = [stamp.strftime("%Y-%m-%d"), stamp.strftime("%H:%M:%S"), pop, str(nbytes), ip, "GET",
             "d111111abcdef8.cloudfront.net", path, status, "-", ua, query, "-", result, rid, host, "https",
             "412", "%.3f" % taken, "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", result, "HTTP/2.0", "-", "-",
             "53211", "%.3f" % ttfb, detailed or result, ctype, str(nbytes), "-", "-"]
    return "\t".join(cells)


def cdn_slow_origin():
    """The server side of a stall: one segment missed the CloudFront cache and its origin took
    4.1 s to a first byte; every other segment was a hit in milliseconds. The device's metric
    events carry CloudFront's `x-amz-cf-id` in each response; the hourly CloudFront log holds
    other viewers' rows too."""
    sid = "7E1B0C55-3A9D-4F1B-B7C2-90D6A4E3F218"
    cdn = "https://video.example.com/vod/film"
    d = Dump(sid)
    rows = []
    d.ev("AVMetricPlayerItemRateChangeEvent", 0.000, rate=1.0, previousRate=0.0, mediaTime=0)

    def served(kind, path, t, dur, nbytes, rid, result="Hit", ttfb=0.004, extra=None, status=200):
        # The device's clock is 0.8 s ahead of CloudFront's; the edge sees the request 20 ms after it left.
        d.req(kind, cdn + path, t, dur, status=status, nbytes=nbytes, headers={"x-amz-cf-id": rid, "x-cache": result + " from cloudfront"},
              extra=extra)
        rows.append((t - 0.8 + 0.02 + dur - 0.03, cloudfront_row(t - 0.8 + 0.02 + dur - 0.03, "FRA56-P3", nbytes, "198.51.100.23",
                                              "/vod/film" + path, str(status), result, rid, dur - 0.03, ttfb,
                                              ctype="application/vnd.apple.mpegurl" if path.endswith(".m3u8") else "video/mp4")))

    served("multivariant", "/master.m3u8", 0.010, 0.060, 1900, "mA1x9Q2mR0cFzJt3kY7uVbN8wPq4sLd6eHg5iOa2Tc1==")
    served("playlist", "/v8/index.m3u8", 0.080, 0.050, 2400, "pB2y8R3nS1dGaKu4lZ8vWcO9xQr5tMe7fIh6jPb3Ud2==")
    served("segment", "/v8/init.mp4", 0.140, 0.040, 900, "iC3z7S4oT2eHbLv5mA9wXdP0yRs6uNf8gJi7kQc4Ve3==",
           extra={"isMapSegment": True, "indexFileURL": cdn + "/v8/index.m3u8"})
    t = 0.2
    for i in range(1, 13):
        slow = i == 6
        dur = 4.45 if slow else 0.9
        served("segment", "/v8/s%d.m4s" % i, t, dur, 6000000, "s%02dD4a6T5pU3fIcMw6nB0xYeQ1zSt7vOg9hKj8lRd5Wf%d==" % (i, i % 10),
               result="Miss" if slow else "Hit", ttfb=4.1 if slow else 0.004,
               extra={"segmentDuration": 6.0, "indexFileURL": cdn + "/v8/index.m3u8"})
        if i == 1:
            d.ev("AVMetricPlayerItemInitialLikelyToKeepUpEvent", 1.15, mediaTime=0, variant=variant(8000000), timeTaken=1.14)
        t += 2.0 if i < 5 else 6.0
    # Segment 6 arrived 4.45 s after it was asked for: the buffer ran out.
    stall_at = 4 * 2.0 + 0.2 + 6 * 1 + 2.3
    d.ev("AVMetricPlayerItemStallEvent", 16.5, mediaTime=14.5, rate=0.0, previousRate=1.0, variant=variant(8000000))
    d.ev("AVMetricPlayerItemLikelyToKeepUpEvent", 18.7, mediaTime=14.5, variant=variant(8000000), timeTaken=2.2)
    d.ev("AVMetricPlayerItemRateChangeEvent", 60.0, rate=0.0, previousRate=1.0, mediaTime=57.8)
    d.ev("AVMetricPlayerItemPlaybackSummaryEvent", 60.2, errorEvent=None, recoverableErrorCount=0, stallCount=1,
         variantSwitchCount=0, playbackDuration=57.8, mediaResourceRequestCount=15, timeSpentRecoveringFromStall=2.2,
         timeSpentInInitialStartup=1.14, timeWeightedAverageBitrate=8000000, timeWeightedPeakBitrate=8000000)
    write("cdn-slow-origin/metrics.jsonl", d.text())
    # Other viewers on the same distribution: another client on the same segments, one on another film.
    for k, (end, path, result, ttfb) in enumerate([(3.0, "/vod/film/v8/s1.m4s", "Hit", 0.003),
                                                    (16.0, "/vod/film/v8/s6.m4s", "Hit", 0.002),
                                                    (20.5, "/vod/film/v8/s7.m4s", "Hit", 0.003),
                                                    (9.0, "/vod/other/v4/s2.m4s", "Miss", 0.350),
                                                    (30.0, "/vod/other/v4/s3.m4s", "Error", 0.001)]):
        rows.append((end, cloudfront_row(end, "FRA56-P3" if k % 2 else "AMS1-C1", 3000000, "203.0.113.%d" % (50 + k), path,
                                         "502" if result == "Error" else "200", result,
                                         "oV%dx2Lq8Nw4Ey6Rz1Tb3Yc5Ud7Ie9Of0Pg2Qh4Ri6Sj8Tk%d==" % (k, k), 0.4, ttfb,
                                         detailed="OriginConnectError" if result == "Error" else None)))
    # CloudFront writes rows as responses end, not sorted; hourly files, gzipped.
    rows.sort(key=lambda r: (int(r[0]) % 7, r[0]))
    text = "#Version: 1.0\n#Fields: " + CLOUDFRONT_FIELDS + "\n" + "\n".join(r for _, r in rows) + "\n"
    write("cdn-slow-origin/cloudfront/E2QWRUHEXAMPLE.2026-11-21-10.a1b2c3d4.gz", gz(text.encode()))


def console_fairplay():
    """A `log show` capture (default style, device at UTC+1) of a FairPlay key request failing in
    mediaplaybackd: -42669 under AVFoundation -11800, retried twice, then the item fails (-19160)."""
    header = "Timestamp                       Thread     Type        Activity             PID    TTL  "
    def line(t, thread, kind, pid, who, msg):
        return "2026-11-20 21:14:%09.6f+0100 %-10s %-11s 0x0                  %-6d 0    %s: %s" % (t, thread, kind, pid, who, msg)
    chain = ('Error Domain=AVFoundationErrorDomain Code=-11800 "The operation could not be completed" '
             'UserInfo={NSLocalizedFailureReason=An unknown error occurred (-42669), NSLocalizedDescription=The operation '
             'could not be completed, NSUnderlyingError=0x283d8c%s {Error Domain=NSOSStatusErrorDomain Code=-42669 "(null)"}}')
    app = "Player: (Player) [com.example.player:drm]"
    lines = [
        'Filtering the log data using "process == "mediaplaybackd" OR process == "Player""',
        "Skipping info and debug messages, pass --info and/or --debug to include.",
        header,
        line(3.118204, "0x5b21c", "Default", 2841, "Player", "(Player) [com.example.player:drm] AVContentKeySession: content key request for skd://keys.example.com/asset/8812"),
        line(3.341877, "0x5b7e2", "Error", 611, "mediaplaybackd", "(MediaToolbox) [com.apple.coremedia:fairplay] <<<< FigContentKeySession >>>> keyRequest failed: err=-42669"),
        line(3.342010, "0x5b7e2", "Error", 611, "mediaplaybackd", "(AVFCore) [com.apple.avfoundation:error] <<<< AVError >>>> AVLocalizedErrorWithUnderlyingOSStatus: Returning error (AVFoundationErrorDomain / -11800) status (-42669)"),
        line(3.342550, "0x5b21c", "Error", 2841, "Player", "(Player) [com.example.player:drm] content key request failed, retrying (1/3): " + chain % "6c0"),
        line(4.512004, "0x5b21c", "Error", 2841, "Player", "(Player) [com.example.player:drm] content key request failed, retrying (2/3): " + chain % "7e0"),
        line(6.020331, "0x5b7e2", "Error", 611, "mediaplaybackd", '(MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-19160 "(null)"'),
        line(6.021410, "0x5b21c", "Error", 2841, "Player", "(Player) [com.example.player:drm] content key request failed (3/3), giving up: " + chain % "900"),
        line(6.022000, "0x5b21c", "Default", 2841, "Player", "(Player) [com.example.player:playback] AVPlayerItem status changed to failed"),
        "-" * 116,
        "Log      - Default:          2, Info:                0, Debug:             0, Error:          6, Fault:          0",
        "Activity - Create:           0, Transition:          0, Actions:           0",
    ]
    write("console-fairplay/console.log", "\n".join(lines) + "\n")


if __name__ == "__main__":
    access_error_logs_only()
    slow_key_startup()
    cdn_404_stall()
    proxy_octet_stream()
    clean_session()
    three_sessions()
    ktvhttpcache_2x_ijkplayer()
    cdn_slow_origin()
    console_fairplay()
    print("wrote", ROOT)
