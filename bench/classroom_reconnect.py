"""A class that comes back by itself: seconds from the network's return (or the server's
restart) to a usable teacher's page and a usable student's page.

In headless Chromium, a teacher and two students mid-game reach the app's server (the
``make app`` command, SQLite) through a TCP relay that the bench cuts
(``tests/classroom/reconnect.py``). For each outage the relay is cut for that long and
restored; then the server is killed and started again on the same folder. After each, the
teacher calls a number that both students place (the class really goes on). A page is
usable when its "connection lost" line is gone and its class shows (the teacher's "Call
the next number" enabled, the student's status line). Outages shorter than the server's
grace for a lost page (120 s) reconnect to the same kernels; longer ones reload.

Then, at the protocol level (``tests/page_client.py``): 30 students' pages from one
address lose their websockets at once and reconnect to their kernels, and after a server
restart 30 pages reload at once (spread over 2.25 s, as the pages' jitter spreads them).

    python bench/classroom_reconnect.py                      # 2 s, 30 s, 5 min; 30 pages
    python bench/classroom_reconnect.py --outages 2 30 --students 0

The machine's load (``os.getloadavg``) is printed with each row: the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.classroom.reconnect import CutClass, class_comes_back  # noqa: E402
from tests.conftest import CHROMIUM_FLAGS, NOTEBOOKS, Server, chromium_path  # noqa: E402


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def browser_rows(outages: list[float]) -> list[tuple[str, float, float, str]]:
    """(what, teacher's seconds, slowest student's seconds, load) for each outage and a
    restart."""
    from playwright.sync_api import sync_playwright

    rows = []
    folder = Path(tempfile.mkdtemp(prefix="reconnect-"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                             args=CHROMIUM_FLAGS)
        cut = CutClass(browser, folder, folder / "server.log")
        try:
            cut.play_a_number()
            for seconds in outages:
                cut.mark_pages()
                usable = cut.outage(seconds)
                how = "reloaded" if any(cut.reloaded()) else "reconnected"
                rows.append((f"network cut {seconds:g} s ({how})", usable[0], max(usable[1:]),
                             load()))
                cut.play_a_number()
            usable = cut.restart()
            rows.append(("server killed, restarted (reloaded)", usable[0], max(usable[1:]),
                         load()))
            cut.play_a_number()
        finally:
            cut.close()
            browser.close()
    return rows


def protocol_rows(students: int) -> list[tuple[str, float, float, str]]:
    """(what, median, slowest seconds, load) for ``students`` pages coming back at once."""
    folder = Path(tempfile.mkdtemp(prefix="reconnect-"))
    env = {"MATHGAMES_STORE": f"sqlite:///{folder / 'classroom.sqlite3'}"}
    server = Server(NOTEBOOKS, folder / "server.log", env=env)
    try:
        server.wait_ready()
        first_log = server.log
        before, again, server = asyncio.run(class_comes_back(
            server, students, folder / "server-2.log", env))
        times = [t for _, t in before if t is not None]
        served = [p.usable_seconds for p in again if p.usable_seconds is not None]
        rows = [(f"{students} pages reconnect ({len(times)} served)", statistics.median(times),
                 max(times), load()),
                (f"{students} pages reload after a restart ({len(served)} served, "
                 f"{sum(p.busy for p in again)} busy)", statistics.median(served), max(served),
                 load())]
        if "floods the server" in first_log.read_text() + server.log.read_text():
            rows.append(("taken for a flood!", 0.0, 0.0, load()))
    finally:
        server.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outages", nargs="*", type=float, default=[2, 30, 300])
    parser.add_argument("--students", type=int, default=30,
                        help="pages at the protocol level (0: none)")
    args = parser.parse_args(argv)
    print(f"load before: {load()} ({os.cpu_count()} cores)")
    start = time.monotonic()
    if args.outages is not None:
        print(f"{'in Chromium':48} {'teacher s':>10} {'student s':>10}  load 1/5/15 min")
        for what, teacher, student, at in browser_rows(args.outages):
            print(f"{what:48} {teacher:10.1f} {student:10.1f}  {at}")
    if args.students:
        print(f"{'protocol level':48} {'median s':>10} {'slowest s':>10}  load 1/5/15 min")
        for what, median, slowest, at in protocol_rows(args.students):
            print(f"{what:48} {median:10.1f} {slowest:10.1f}  {at}")
    print(f"({time.monotonic() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
