"""The static site (``make site``) as a phone on a school's Wi-Fi would meet it, measured here.

Builds the site (or reuses it), serves it with a plain static file server on loopback and
opens each game's page in headless Chromium: the bytes a first visit downloads (uncompressed:
Python's file server sends no gzip; a host that compresses sends less), the time until the
page's first panel is drawn and until the board is drawn (after "Start" on the games with a
set-up panel), on a cold cache (a new browser profile) and a warm one (the same page again,
the files revalidated). Then a Halma bot's move time in Pyodide against this CPython (the same
pure-Python search, depth 4, 10 moves from the start).

    .venv/bin/python bench/static_site.py [--repeat 2]

Goals (issue 58): the board within 8 s cold and 3 s warm; a first visit at most 20 MB.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import subprocess
import sys
import threading
import time
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


def visit(context: Any, url: str, ready: str, click: str | None) -> tuple[float, float, int]:
    """Open ``url`` in ``context``: seconds to the first panel, to the board, bytes received."""
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
    page.wait_for_timeout(500)  # the last files (fonts) the board asked for
    page.close()
    return panel, board, received[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    subprocess.run([sys.executable, str(ROOT / "site-src" / "build.py")], check=True)
    site = ROOT / "site"
    files = [p for p in site.rglob("*") if p.is_file()]
    print(f"site: {sum(p.stat().st_size for p in files) / 1e6:.1f} MB in {len(files)} files")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    from playwright.sync_api import sync_playwright

    print(f"{'page':18} {'first visit MB':>14} {'panel cold s':>12} {'board cold s':>12}"
          f" {'panel warm s':>12} {'board warm s':>12}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                             args=CHROMIUM_FLAGS)
        for name, ready, click in PAGES:
            cold, warm, sizes = [], [], []
            for _ in range(args.repeat):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                url = f"{base}/{name}.html?lang=en"
                panel, board, size = visit(context, url, ready, click)
                cold.append((panel, board))
                sizes.append(size)
                warm.append(visit(context, url, ready, click)[:2])
                context.close()
            med = [statistics.median(x) for x in zip(*cold, strict=True)]
            medw = [statistics.median(x) for x in zip(*warm, strict=True)]
            print(f"{name:18} {max(sizes) / 1e6:14.1f} {med[0]:12.1f} {med[1]:12.1f}"
                  f" {medw[0]:12.1f} {medw[1]:12.1f}")
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}/halma.html?lang=en")
        page.wait_for_function("() => !!globalThis.mgPython", timeout=180_000)
        steps = page.evaluate("() => globalThis.mgTimes")
        pyodide_ms = page.evaluate("code => globalThis.mgPython.runPython(code)", BOT_MOVES)
        browser.close()
    namespace: dict[str, Any] = {}
    lines = BOT_MOVES.strip().splitlines()
    exec("\n".join(lines[:-1]), namespace)
    cpython_ms = eval(lines[-1], namespace)
    print(f"Halma bot (search, depth 4), median of 10 moves: Pyodide {pyodide_ms:.0f} ms,"
          f" CPython {sys.version.split()[0]} {cpython_ms:.0f} ms"
          f" ({pyodide_ms / cpython_ms:.1f} x)")
    print("Halma's page, cold, ms from the script's start to the end of each step:", steps)
    server.shutdown()


if __name__ == "__main__":
    main()
