"""Load on the Voila app: N students open a game page at once.

Starts the app's server (the ``make app`` command) on loopback, then for each N
(1, 10, 30 by default) opens N pages at the same time in headless Chromium, each
in its own browser context, and measures the time until the page is rendered
(the game's setup panel shown: p50, p95), the time until the game's board is
drawn (Start pressed, the board shown: p50, p95, max) and each kernel's memory
(RSS and USS, by psutil), and the CPU seconds the round cost the server with its
kernels and the browser. The same round runs on a bare notebook that shows one
ipywidgets button: the reference for what a kernel costs anyway. Kernels are shut
down between rounds. The browser runs on the same 2 cores as the server, so the
times include 30 pages' worth of browser work that a classroom's own devices would do.

    .venv/bin/python bench/voila_load.py            # N = 1, 10, 30
    .venv/bin/python bench/voila_load.py --sizes 1 5 --pages matematiko.ipynb
    .venv/bin/python bench/voila_load.py --single 20 --sizes   # one student, 20 visits

``--single K`` first measures one student on the idle server, K visits (the four
games in turn), each in a fresh browser (empty cache): the game page opened
directly (a bookmark, a link from elsewhere), and the way a class arrives, the
landing page first (the address the teacher gives), then a game from it.

MATHGAMES_LOAD_SHOTS=dir keeps a screenshot of every page that did not render, and
MATHGAMES_LOAD_LOG=file keeps the server's log.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import psutil
from playwright.async_api import async_playwright

from mathgames.server.serve import server_command

ROOT = Path(__file__).resolve().parent.parent
GAME_PAGES = ["matematiko.ipynb", "triomino.ipynb", "halma.ipynb", "chinese_checkers.ipynb"]
BARE = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "bare-button", "metadata": {},
               "outputs": [],
               "source": ["import ipywidgets\n", "ipywidgets.Button(description='Hello')"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}
SHOTS = os.environ.get("MATHGAMES_LOAD_SHOTS", "")  # a folder for screenshots of failures
KEEP_LOG = os.environ.get("MATHGAMES_LOAD_LOG", "")  # a file to keep the server's log in
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", "--disable-quic"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def kernel_memory(server: psutil.Process) -> list[tuple[float, float]]:
    """(RSS, USS) in MiB of every kernel process the server started."""
    found = []
    for child in server.children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                info = child.memory_full_info()
                found.append((info.rss / 2**20, info.uss / 2**20))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def cpu_seconds(server: psutil.Process) -> dict[int, tuple[str, float]]:
    """CPU seconds used so far by each process of the server (itself and its kernels) and of
    the headless browser: ``{pid: (what, seconds)}``."""
    found: dict[int, tuple[str, float]] = {}
    for what, procs in (("server", [server, *server.children(recursive=True)]),
                        ("browser", [p for p in psutil.process_iter(["name"])
                                     if (p.info["name"] or "").startswith("chrom")])):
        for proc in procs:
            try:
                times = proc.cpu_times()
                found[proc.pid] = (what, times.user + times.system)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
    return found


async def open_page(browser: object, url: str, selector: str
                    ) -> tuple[float, float, str, object]:
    """Open a page; for a game, press Start on its setup panel and wait for the board.

    Returns the seconds until the page was rendered (a game's setup panel shown), the
    seconds until ``selector`` was shown (the board, after Start), why the page failed
    ('' if it did not) and the browser context.
    """
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text[:120]}")
            if msg.type in ("error", "warning") else None)
    start = time.perf_counter()
    shown = float("nan")
    try:
        await page.goto(url, wait_until="domcontentloaded", timeout=300_000)
        if selector == ".mathgames-board":
            await page.wait_for_selector(".mg-start", state="visible", timeout=300_000)
            shown = time.perf_counter() - start
            await page.click(".mg-start", timeout=300_000)
        await page.wait_for_selector(selector, state="visible", timeout=300_000)
        done = time.perf_counter() - start
        return (done if math.isnan(shown) else shown), done, "", context
    except Exception as error:
        body = ""
        with contextlib.suppress(Exception):
            body = (await page.inner_text("body"))[:300].replace("\n", " ")
        why = f"{url.rsplit('/', 1)[-1]}: {str(error).splitlines()[0][:160]} | page: {body}"
        if console:
            why += " | console: " + " / ".join(sorted(set(console))[:4])
        if SHOTS:
            with contextlib.suppress(Exception):
                await page.screenshot(path=f"{SHOTS}/not-rendered-{id(page)}.png")
        return shown, time.perf_counter() - start, why, context


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def run_round(browser: object, base: str, server: psutil.Process, pages: list[str],
                    n: int, selector: str) -> dict[str, object]:
    urls = [f"{base}/voila/render/{pages[i % len(pages)]}" for i in range(n)]
    cpu_before = cpu_seconds(server)
    results = await asyncio.gather(*(open_page(browser, url, selector) for url in urls))
    shown = [t for t, _, why, _ in results if not why]
    times = [t for _, t, why, _ in results if not why]
    for why in sorted({why for _, _, why, _ in results if why}):
        print("  not rendered:", why, flush=True)
    await asyncio.sleep(2)
    memory = kernel_memory(server)
    cpu = {"server": 0.0, "browser": 0.0}
    for pid, (what, seconds) in cpu_seconds(server).items():
        cpu[what] += seconds - cpu_before.get(pid, (what, 0.0))[1]
    for *_, context in results:
        await context.close()
    # The app's server ends the kernels of closed pages by itself (within about 20 s).
    for _ in range(120):
        if not kernel_memory(server):
            break
        await asyncio.sleep(1)
    rss = [m[0] for m in memory]
    uss = [m[1] for m in memory]
    return {
        "rendered": len(times), "n": n,
        "page50": statistics.median(shown) if shown else float("nan"),
        "page95": percentile(shown, 0.95) if shown else float("nan"),
        "p50": statistics.median(times) if times else float("nan"),
        "p95": percentile(times, 0.95) if times else float("nan"),
        "max": max(times) if times else float("nan"),
        "kernels": len(memory),
        "rss": statistics.mean(rss) if rss else float("nan"),
        "uss": statistics.mean(uss) if uss else float("nan"),
        "cpu_server": cpu["server"], "cpu_browser": cpu["browser"],
    }


async def single_student(browser: object, base: str, pages: list[str], visits: int,
                         ) -> dict[str, list[float]]:
    """One student at a time: seconds until the board is drawn, cold and via the landing page."""
    found: dict[str, list[float]] = {"direct": [], "landing": []}
    for i in range(visits):
        url = f"{base}/voila/render/{pages[i % len(pages)]}"
        _, done, why, context = await open_page(browser, url, ".mathgames-board")
        await context.close()
        if why:
            print("  not rendered:", why, flush=True)
        else:
            found["direct"].append(done)
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        page = await context.new_page()
        await page.goto(f"{base}/voila/render/index.ipynb", wait_until="domcontentloaded")
        await page.wait_for_selector(f"a[href^='{pages[i % len(pages)]}']", state="visible",
                                     timeout=300_000)
        start = time.perf_counter()
        await page.click(f"a[href^='{pages[i % len(pages)]}']")
        await page.wait_for_selector(".mg-start", state="visible", timeout=300_000)
        await page.click(".mg-start", timeout=300_000)
        await page.wait_for_selector(".mathgames-board", state="visible", timeout=300_000)
        found["landing"].append(time.perf_counter() - start)
        await context.close()
        await asyncio.sleep(1)
    return found


async def main_async(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="mathgames-load-"))
    shutil.copytree(ROOT / "notebooks", workdir / "notebooks")
    (workdir / "notebooks" / "bare_button.ipynb").write_text(json.dumps(BARE))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (workdir / "server.log").open("w")
    process = subprocess.Popen(server_command(workdir / "notebooks", port), stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT)
    try:
        for _ in range(300):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/")  # the redirect to the landing page
                if connection.getresponse().status == 302:
                    break
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.3)
        server = psutil.Process(process.pid)
        chromium = os.environ.get("MATHGAMES_CHROMIUM", "/usr/bin/chromium")
        rows = []
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium, args=FLAGS)
            single = (await single_student(browser, base, args.pages, args.single)
                      if args.single else None)
            for n in args.sizes:
                rounds = [("bare button", ["bare_button.ipynb"], ".widget-button"),
                          ("game pages", args.pages, ".mathgames-board")]
                for label, pages, selector in rounds[args.no_bare:]:
                    row = await run_round(browser, base, server, pages, n, selector)
                    row["what"] = label
                    rows.append(row)
                    print(f"  done: {label:12} N={n:3}  rendered {row['rendered']}/{n}", flush=True)
            await browser.close()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # kernels that do not answer a shutdown request
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        if KEEP_LOG:
            shutil.copy(workdir / "server.log", KEEP_LOG)
        shutil.rmtree(workdir, ignore_errors=True)

    print()
    print(f"Voila load on {os.cpu_count()} cores; game pages: {', '.join(args.pages)}")
    print("page p50/p95: until the page is rendered (a game's setup panel shown);"
          " board p50/p95/max: until the board is drawn after Start (the bare page: its button)")
    print("CPU s: the round's CPU seconds in the server and its kernels, and in the browser"
          " (processes alive at the end of the round)")
    print(f"{'page':12} {'N':>4} {'rendered':>9} {'page p50':>9} {'page p95':>9} {'board p50':>10}"
          f" {'board p95':>10} {'max s':>7} {'kernels':>8} {'RSS MiB':>8} {'USS MiB':>8}"
          f" {'server CPU s':>13} {'browser CPU s':>14}")
    for row in rows:
        print(f"{row['what']:12} {row['n']:>4} {row['rendered']:>9} {row['page50']:>9.2f}"
              f" {row['page95']:>9.2f} {row['p50']:>10.2f} {row['p95']:>10.2f} {row['max']:>7.2f}"
              f" {row['kernels']:>8} {row['rss']:>8.1f} {row['uss']:>8.1f}"
              f" {row['cpu_server']:>13.1f} {row['cpu_browser']:>14.1f}")
    if single:
        print(f"One student on the idle server, {args.single} visits (the games in turn), each"
              " in a fresh browser: seconds until the board is drawn")
        for what, label in (("direct", "the game page opened directly"),
                            ("landing", "from the landing page (click, Start, board)")):
            times = single[what]
            if times:
                print(f"  {label:45} p50 {statistics.median(times):.2f}  p95 "
                      f"{percentile(times, 0.95):.2f}  max {max(times):.2f}  ({len(times)} visits)")
    bare = [r for r in rows if r["what"] == "bare button"]
    games = [r for r in rows if r["what"] == "game pages"]
    for b, g in zip(bare, games, strict=False):  # --no-bare leaves no pairs
        print(f"N={b['n']}: game kernel / bare kernel memory (RSS) = {g['rss'] / b['rss']:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1, 10, 30])
    parser.add_argument("--single", type=int, default=0,
                        help="first, one student K times on the idle server")
    parser.add_argument("--pages", nargs="+", default=GAME_PAGES)
    parser.add_argument("--no-bare", action="store_true", help="skip the bare-notebook rounds")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
