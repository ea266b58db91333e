"""A class under attack: can one device lock a class out of the app's server?

Starts the app's server as a teacher does (``make app CLASSROOM=1``: the ``make app``
command in classroom mode, its default admission unless ``--max-kernels``) on loopback,
with the classroom store in a throwaway folder. Then, all at the protocol level
(:mod:`tests.page_client`, and the class pages of ``tests/classroom/school.py``),
each device on a loopback address of its own (the client socket's source address):

- the **flood** (127.0.0.1): ``--flooders`` loops requesting game pages as fast as they
  are answered, never opening a page's websocket (a ``curl`` loop, a link preview);
- the **dropper** (127.0.0.32): a loop that requests a game page, opens its kernel's
  websocket and drops it at once (no close beacon), again and again;
- after ``--warmup`` seconds of attack, the **teacher** (127.0.0.33) opens a class and
  ``--students`` students (127.0.0.2, 127.0.0.3, ...) open the join page all at once,
  join and play a Matematiko game of ``--calls`` numbers; the attack goes on meanwhile;
- then the attack stops, and the time until the server holds only the class's pages
  again (its capacity back) is measured.

It prints: students served / busy / errors (first attempt, no retry), seconds to a usable
join page (p50 / p95 / max: the page's HTML and its widgets' state received), whether
the game finished (every student placed every number, the CSV complete when 25 were
called), the attackers' answers by HTTP status, the most kernels the attack held, and
the seconds until the capacity was back. Goals (issue 55): 30 of 30 served, p95 at most
20 s, capacity back within 60 s.

    .venv/bin/python bench/classroom_hostile.py
    .venv/bin/python bench/classroom_hostile.py --max-kernels 40   # a smaller server
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from classroom_load import AppServer, percentile  # noqa: E402
from school import PATIENCE, ClassGame, LivePage, Student, Teacher, student_names  # noqa: E402

from mathgames.server.serve import default_max_kernels  # noqa: E402
from tests.page_client import V1_PROTOCOL, PageVisit, kernel_id_of, visit  # noqa: E402

GAME = "matematiko.ipynb"
FLOOD = "127.0.0.1"
DROPPER = "127.0.0.32"
TEACHER = "127.0.0.33"


def student_address(index: int) -> str:
    """The loopback address of student ``index`` (0: 127.0.0.2; 30 students: to .31)."""
    return f"127.0.0.{index + 2}"


class ClassServer(AppServer):
    """``make app CLASSROOM=1`` on a copy of notebooks/, its store in a throwaway folder."""

    def __init__(self, workdir: Path, max_kernels: int | None) -> None:
        env = dict(os.environ, MATHGAMES_DATA_DIR=str(workdir / "data"), PYTHONUNBUFFERED="1")
        env.pop("MATHGAMES_STORE", None)
        env.pop("MATHGAMES_PASSWORD", None)
        super().__init__(workdir, max_kernels, classroom=True, env=env)

    def kernels(self) -> int:
        """The pages' kernels running now (the ipykernel processes under the server)."""
        found = 0
        for child in self.ps.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                found += any("ipykernel" in part for part in child.cmdline())
        return found


class Attacker:
    """One attacking device: page requests that never connect, or connect and drop."""

    def __init__(self, base: str, source: str, workers: int, drop: bool) -> None:
        self.base, self.source, self.workers, self.drop = base, source, workers, drop
        self.answers: collections.Counter[str] = collections.Counter()

    async def _one(self) -> str:
        reply = await AsyncHTTPClient().fetch(HTTPRequest(
            f"{self.base}/voila/render/{GAME}", request_timeout=PATIENCE,
            connect_timeout=PATIENCE, network_interface=self.source), raise_error=False)
        if reply.code != 200 or not self.drop:
            return str(reply.code)
        kernel_id = kernel_id_of(reply.body.decode("utf-8", "replace"))
        url = (self.base.replace("http", "ws", 1)
               + f"/api/kernels/{kernel_id}/channels?session_id=dropper")
        try:
            ws = await websocket_connect(HTTPRequest(
                url, connect_timeout=60, request_timeout=60, network_interface=self.source),
                subprotocols=[V1_PROTOCOL])
            ws.close()  # dropped at once, no close beacon
            return "200, websocket dropped"
        except Exception as error:  # counted and shown, whatever it was
            return f"200, websocket {type(error).__name__}"

    async def run(self, stop: asyncio.Event, limit: int = 20_000) -> None:
        async def worker() -> None:
            while not stop.is_set() and sum(self.answers.values()) < limit:
                try:
                    answer = await self._one()
                except Exception as error:
                    answer = type(error).__name__
                self.answers[answer] += 1
                if not answer.startswith("200"):
                    await asyncio.sleep(0.05)  # as fast as answered, not a busy loop

        await asyncio.gather(*(worker() for _ in range(self.workers)))


async def join_page(base: str, code: str, index: int) -> PageVisit:
    return await visit(base, f"join.ipynb?lang=en&code={code}", keep_open=True,
                       timeout=PATIENCE, source=student_address(index))


async def attack_round(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    server = ClassServer(workdir, args.max_kernels)
    stop = asyncio.Event()
    flood = Attacker(server.url, FLOOD, args.flooders, drop=False)
    dropper = Attacker(server.url, DROPPER, 1, drop=True)
    attacks = [asyncio.ensure_future(flood.run(stop)), asyncio.ensure_future(dropper.run(stop))]
    peak = 0
    game: ClassGame | None = None
    row: dict[str, Any] = {"cap": args.max_kernels or default_max_kernels()}
    try:
        until = time.monotonic() + args.warmup
        while time.monotonic() < until:
            peak = max(peak, server.kernels())
            await asyncio.sleep(1)
        row["attack_kernels_at_class"] = server.kernels()
        teacher_visit = await visit(server.url, "teacher.ipynb?lang=en", keep_open=True,
                                    timeout=PATIENCE, source=TEACHER)
        if teacher_visit.status != 200 or teacher_visit.error:
            raise RuntimeError(f"the teacher's page: {teacher_visit.status} "
                               f"{teacher_visit.error}")
        teacher = Teacher(LivePage(teacher_visit))
        code = await teacher.open_class()
        visits = await asyncio.gather(*(join_page(server.url, code, i)
                                        for i in range(args.students)))
        served = [i for i, v in enumerate(visits) if v.status == 200 and not v.error]
        busy = [i for i, v in enumerate(visits) if v.busy]
        row.update(served=len(served), busy=len(busy),
                   errors=args.students - len(served) - len(busy))
        for why in sorted({f"{v.status} {v.error}" for v in visits
                           if v.error or v.status not in (200, 503)})[:5]:
            print(f"  student error: {why}", flush=True)
        times = [visits[i].usable_seconds or 0.0 for i in served]
        row.update(p50=statistics.median(times) if times else float("nan"),
                   p95=percentile(times, 0.95) if times else float("nan"),
                   max=max(times) if times else float("nan"))
        names = student_names(args.students)
        students = [Student(LivePage(visits[i]), names[i], i) for i in served]
        game = ClassGame(server.url, len(students))
        game.teacher, game.students = teacher, students
        for v in (v for v in visits if v.status != 200 or v.error):
            await v.close(beacon=False)
        try:
            await asyncio.gather(*(student.join(code) for student in students))
            await teacher.page.until(lambda: len(teacher.students()) == len(students),
                                     "every student on the teacher's page")
            for _k in range(args.calls):
                peak = max(peak, server.kernels())
                # the call button rests 1 s after a call (a double-click calls one number)
                await teacher.page.until(
                    lambda: teacher.page.value("mg-call-button", "disabled") is False,
                    "the call button again")
                await game.call()
            if args.calls == 25:
                await game.check_csv()
            row["game"] = f"{args.calls} calls, all placed" + (
                ", CSV complete" if args.calls == 25 else "")
        except Exception as error:  # the bench reports it
            row["game"] = f"failed: {type(error).__name__}: {str(error)[:120]}"
        row["latency_p95"] = (percentile(game.latencies, 0.95) if game.latencies
                              else float("nan"))
        peak = max(peak, server.kernels())
        # the attack stops: how long until the server holds only the class's pages?
        stop.set()
        await asyncio.gather(*attacks)
        stopped = time.monotonic()
        class_pages = 1 + len(students)
        while server.kernels() > class_pages and time.monotonic() - stopped < 600:
            await asyncio.sleep(0.5)
        row["back_s"] = time.monotonic() - stopped
        row["left_over"] = server.kernels() - class_pages
        row["attack_peak"] = peak
        row["flood"] = dict(flood.answers)
        row["dropper"] = dict(dropper.answers)
    finally:
        stop.set()
        for task in attacks:
            task.cancel()
        if game is not None:
            await game.close()
        server.stop()
        if args.keep_log:
            shutil.copy(server.log_path, Path(args.keep_log) / server.log_path.name)
    return row


def answers_text(answers: dict[str, int]) -> str:
    return ", ".join(f"{count} × {what}" for what, count in sorted(answers.items()))


async def main_async(args: argparse.Namespace) -> None:
    AsyncHTTPClient.configure(None, max_clients=args.students + args.flooders + 20)
    workdir = Path(tempfile.mkdtemp(prefix="mathgames-hostile-"))
    shutil.copytree(ROOT / "notebooks", workdir / "notebooks")
    try:
        row = await attack_round(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print()
    print(f"A class under attack on {os.cpu_count()} cores (load average {load:.1f} at the "
          f"end), page cap {row['cap']}; flood: {args.flooders} loops on {FLOOD}, pages never "
          f"connected; dropper: 1 loop on {DROPPER}, websocket opened and dropped; "
          f"{args.warmup:.0f} s of attack before the class")
    print(f"{'students':>8} {'served':>7} {'busy':>5} {'errors':>7} {'p50 s':>6} {'p95 s':>6}"
          f" {'max s':>6} {'call p95 s':>10} {'attack kernels':>14} {'capacity back s':>15}"
          f" {'left over':>9}")
    print(f"{args.students:>8} {row['served']:>7} {row['busy']:>5} {row['errors']:>7}"
          f" {row['p50']:>6.1f} {row['p95']:>6.1f} {row['max']:>6.1f}"
          f" {row['latency_p95']:>10.2f} {row['attack_peak']:>14} {row['back_s']:>15.1f}"
          f" {row['left_over']:>9}")
    print(f"game: {row['game']}")
    print(f"kernels when the class came: {row['attack_kernels_at_class']}")
    print(f"flood's answers: {answers_text(row['flood'])}")
    print(f"dropper's answers: {answers_text(row['dropper'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="at most 30 (127.0.0.2-.31)")
    parser.add_argument("--calls", type=int, default=25, help="numbers called in the game")
    parser.add_argument("--flooders", type=int, default=4,
                        help="parallel request loops of the flood")
    parser.add_argument("--warmup", type=float, default=30,
                        help="seconds of attack before the class comes")
    parser.add_argument("--max-kernels", type=int, default=None,
                        help="the server's page cap (default: the app's own, from memory)")
    parser.add_argument("--keep-log", default="", help="a folder to keep the server's log in")
    args = parser.parse_args()
    if not 1 <= args.students <= 30:
        parser.error("--students: from 1 to 30 (the addresses 127.0.0.2-127.0.0.31)")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
