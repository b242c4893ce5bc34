#!/usr/bin/env python3
"""Render a Markdown report as a person sees it: GitHub-style Markdown (tables, HTML blocks such
as <details>) with its Mermaid charts drawn, in headless Chromium, saved as a PNG.

    python3 Scripts/render_report.py REPORT.md OUT.png [--width 1280]

Everything comes from Debian's and PyPI's packages, nothing from the network at render time:
- `chromium` (apt) takes the screenshot;
- `markdown-it-py` (pip) turns the Markdown into HTML (not needed for an HTML report);
- the Mermaid bundle is taken from the `nicegui` wheel (pip download, not installed).
The page is served on 127.0.0.1 only, because Chromium will not load ES modules from file://.
Missing pieces are installed when CI=true or --install is given; otherwise the script says what
to install.
"""
import argparse
import functools
import glob
import html
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile


def need(install: bool, markdown: bool) -> None:
    """Chromium always; markdown-it-py only to turn Markdown into HTML (an HTML report is a page)."""
    missing = []
    if shutil.which("chromium") is None:
        missing.append(("apt", "chromium"))
    if markdown:
        try:
            import markdown_it  # noqa: F401
        except ImportError:
            missing.append(("pip", "markdown-it-py"))
    if not missing:
        return
    if not install:
        sys.exit("missing: " + ", ".join(f"{kind} {name}" for kind, name in missing) + " (or run with --install)")
    for kind, name in missing:
        if kind == "apt":
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(["apt-get", "install", "-y", "-qq", name], check=True,
                           env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        else:
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", name], check=True)


def mermaid_dist(cache: str) -> str:
    """The directory of the Mermaid ES-module bundle shipped inside the nicegui wheel."""
    dist = os.path.join(cache, "nicegui", "elements", "mermaid", "dist")
    if os.path.isfile(os.path.join(dist, "index.js")):
        return dist
    os.makedirs(cache, exist_ok=True)
    wheels = glob.glob(os.path.join(cache, "nicegui-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", cache, "nicegui"], check=True)
        wheels = glob.glob(os.path.join(cache, "nicegui-*.whl"))
    with zipfile.ZipFile(sorted(wheels)[-1]) as z:
        for name in z.namelist():
            if name.startswith("nicegui/elements/mermaid/dist/"):
                z.extract(name, cache)
    return dist


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>report</title>
<style>
body {{ font: 14px/1.5 -apple-system, "DejaVu Sans", sans-serif; max-width: 1200px; margin: 24px auto; color: #1f2328; }}
table {{ border-collapse: collapse; margin: 8px 0; }} th, td {{ border: 1px solid #d0d7de; padding: 4px 8px; }}
th {{ background: #f6f8fa; }} code {{ background: #eff1f3; padding: 1px 4px; border-radius: 4px; }}
pre.mermaid {{ background: none; }} details {{ margin: 8px 0; }}
</style></head><body>
{body}
<script type="module">
import {{ mermaid }} from "./mermaid/index.js";
mermaid.initialize({{ startOnLoad: false, theme: "default", securityLevel: "strict", deterministicIds: true }});
await mermaid.run({{ querySelector: "pre.mermaid" }});
document.body.setAttribute("data-rendered", "yes");
</script></body></html>"""


def to_html(markdown_text: str) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("gfm-like", {"html": True, "linkify": False})
    default_fence = md.renderer.rules.get("fence")

    def fence(tokens, idx, options, env):
        token = tokens[idx]
        if token.info.strip() == "mermaid":
            return '<pre class="mermaid">' + html.escape(token.content) + "</pre>\n"
        return default_fence(tokens, idx, options, env)

    md.renderer.rules["fence"] = fence
    return PAGE.format(body=md.render(markdown_text))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("png")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=0, help="0: tall enough for the whole page (estimated)")
    parser.add_argument("--install", action="store_true")
    args = parser.parse_args()
    is_html = args.report.endswith(".html")
    need(args.install or os.environ.get("CI") == "true", markdown=not is_html)
    with tempfile.TemporaryDirectory() as site:
        if not is_html:
            # The HTML report is self-contained; only Markdown needs the Mermaid bundle.
            cache = os.path.join(tempfile.gettempdir(), "playback-forensics-render")
            os.symlink(mermaid_dist(cache), os.path.join(site, "mermaid"))
        text = open(args.report, encoding="utf-8").read()
        if args.report.endswith(".html"):
            page = text
        else:
            page = to_html(text)
        with open(os.path.join(site, "index.html"), "w", encoding="utf-8") as f:
            f.write(page)
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        handler = functools.partial(Quiet, directory=site)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        if is_html:
            import re
            rows = sum(text.count(t) for t in ("<tr", "<p>", "<h", "<li>", "<summary"))
            svg = sum(float(h) for h in re.findall(r'<svg[^>]* height="([0-9.]+)"', text))
            height = args.height or int(max(900, 30 * rows + svg + 600))
        else:
            height = args.height or max(900, 22 * text.count("\n") + 600)
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        try:
            subprocess.run(
                ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--window-size={args.width},{height}", "--virtual-time-budget=15000",
                 f"--screenshot={os.path.abspath(args.png)}", url],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        finally:
            server.shutdown()
    print(args.png)


if __name__ == "__main__":
    main()
