"""The static site (``make site``) as a phone on a school's Wi-Fi would meet it, measured here.

Builds the site (or reuses it), serves it with a plain static file server on loopback and
opens each game's page in headless Chromium: the bytes a first visit downloads (uncompressed:
Python's file server sends no gzip; a host that compresses sends less), the time until the
page's first panel is drawn and until the board is drawn (after "Start" on the games with a
set-up panel), on a cold cache (an empty one) and a warm one (the same page again,
the files revalidated; a new browser profile on disk, as a student's browser keeps one, or
with ``--private`` an off-the-record one, where Chromium keeps no compiled code), with each
page's own timeline (``mgTimes`` in site-src/main.js). Then a Halma bot's move time in
Pyodide against this CPython (the same pure-Python search, depth 4, 10 moves from the start).

    .venv/bin/python bench/static_site.py [--repeat 2] [--private] [--pages halma ...]

Goals (issue 58): the board within 8 s cold and 3 s warm; a first visit at most 20 MB.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM_FLAGS, chromium_path  # noqa: E402

#: page, what shows that Python has drawn the page, what to click for the board (or None)
PAGES = (("halma", ".mg-start", ".mg-start"), ("chinese_checkers", ".mg-start", ".mg-start"),
         ("triomino", ".mg-start", ".mg-start"), ("matematiko", ".mg-start", ".mg-start"),
         ("mosaic", ".mg-mosaic-board .mathgames-board", None),
         ("lesson-mosaics", ".mg-mosaic-board .mathgames-board", None))
BOT_MOVES = """
import time
from mathgames.halma import Game
from mathgames.halma.bots import make_bot
game, bot, spent = Game("halma", 2), make_bot("search", seed=1, time_budget=600, max_depth=4), []
for _ in range(10):
    started = time.perf_counter()
    move = bot.choose(game)
    spent.append(time.perf_counter() - started)
    game.play(move)
sorted(spent)[len(spent) // 2] * 1000
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        """No line per request."""


def visit(context: Any, url: str, ready: str,
          click: str | None) -> tuple[float, float, int, dict[str, int]]:
    """Open ``url`` in ``context``: seconds to the first panel, to the board, bytes received,
    and the page's own timeline (``mgTimes``: ms from the request to the end of each step)."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    received = [0]
    session.on("Network.loadingFinished",
               lambda event: received.__setitem__(0, received[0] + event["encodedDataLength"]))
    started = time.monotonic()
    page.goto(url, wait_until="domcontentloaded")
    page.locator(ready).first.wait_for(state="visible", timeout=180_000)
    panel = time.monotonic() - started
    if click:
        page.locator(click).click()
    page.locator(".mathgames-board").first.wait_for(state="visible", timeout=180_000)
    board = time.monotonic() - started
    steps = page.evaluate("() => ({...globalThis.mgTimes, board: Math.round(performance.now())})")
    page.wait_for_timeout(500)  # the last files (fonts) the board asked for
    page.close()
    return panel, board, received[0], steps


def timeline(visits: list[dict[str, int]]) -> str:
    """The median of each step over ``visits``, in the order the steps end."""
    steps = sorted(visits[0], key=lambda step: visits[0][step])
    return " ".join(f"{step} {statistics.median(v.get(step, 0) for v in visits) / 1000:.2f}"
                    for step in steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--pages", nargs="*", help="only these pages (default: all)")
    parser.add_argument("--site", type=Path,
                        help="measure this built site as it is (default: make site, then site/)")
    parser.add_argument("--private", action="store_true",
                        help="measure in off-the-record contexts (no compiled-code cache)")
    args = parser.parse_args()
    site = args.site or ROOT / "site"
    if not args.site:
        subprocess.run([sys.executable, str(ROOT / "site-src" / "build.py")], check=True)
    files = [p for p in site.rglob("*") if p.is_file()]
    print(f"site: {sum(p.stat().st_size for p in files) / 1e6:.1f} MB in {len(files)} files")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    with urllib.request.urlopen(f"{base}/pyodide/pyodide.asm.wasm") as response:
        # application/wasm: the browser compiles it as it streams in, and keeps the code
        print(f"pyodide.asm.wasm served as {response.headers['Content-Type']}")
    from playwright.sync_api import sync_playwright

    print(f"{'page':18} {'first visit MB':>14} {'panel cold s':>12} {'board cold s':>12}"
          f" {'panel warm s':>12} {'board warm s':>12}")
    timelines: list[tuple[str, dict[str, list[dict[str, int]]]]] = []
    pages = [page for page in PAGES if not args.pages or page[0] in args.pages]
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profiles:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                             args=CHROMIUM_FLAGS)

        def new_profile() -> Any:
            """A browser with an empty cache: off the record (--private, as an incognito
            window: Chromium keeps no compiled code there) or a new profile on disk."""
            size = {"width": 1280, "height": 900}
            if args.private:
                return browser.new_context(viewport=size)
            return playwright.chromium.launch_persistent_context(
                tempfile.mkdtemp(dir=profiles), executable_path=chromium_path(),
                headless=True, args=CHROMIUM_FLAGS, viewport=size)

        for name, ready, click in pages:
            cold, warm, sizes, steps = [], [], [], {"cold": [], "warm": []}
            for _ in range(args.repeat):
                context = new_profile()
                url = f"{base}/{name}.html?lang=en"
                panel, board, size, first = visit(context, url, ready, click)
                cold.append((panel, board))
                sizes.append(size)
                *again, _, second = visit(context, url, ready, click)
                warm.append(again)
                steps["cold"].append(first)
                steps["warm"].append(second)
                context.close()
            timelines.append((name, steps))
            med = [statistics.median(x) for x in zip(*cold, strict=True)]
            medw = [statistics.median(x) for x in zip(*warm, strict=True)]
            print(f"{name:18} {max(sizes) / 1e6:14.1f} {med[0]:12.2f} {med[1]:12.2f}"
                  f" {medw[0]:12.2f} {medw[1]:12.2f}", flush=True)
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}/halma.html?lang=en")
        page.wait_for_function("() => !!globalThis.mgPython", timeout=180_000)
        pyodide_ms = page.evaluate("code => globalThis.mgPython.runPython(code)", BOT_MOVES)
        browser.close()
    namespace: dict[str, Any] = {}
    lines = BOT_MOVES.strip().splitlines()
    exec("\n".join(lines[:-1]), namespace)
    cpython_ms = eval(lines[-1], namespace)
    print(f"Halma bot (search, depth 4), median of 10 moves: Pyodide {pyodide_ms:.0f} ms,"
          f" CPython {sys.version.split()[0]} {cpython_ms:.0f} ms"
          f" ({pyodide_ms / cpython_ms:.1f} x)")
    print("Each page's timeline: seconds from the request to the end of each step (median)")
    for name, steps in timelines:
        for cache, visits in steps.items():
            print(f"  {name:18} {cache}: {timeline(visits)}")
    server.shutdown()


if __name__ == "__main__":
    main()
