"""A lesson-long soak: a 45-minute class compressed into ``--minutes`` (15), at the
protocol level, on one app server (``make app CLASSROOM=1``) on loopback.

- The teacher (127.0.0.33) opens a class; ``--students`` students (127.0.0.2, ...) join.
- Three Matematiko games of 25 calls, the calls spread over the run; after each game the
  teacher checks the CSV and starts the next one ("Play again with this class").
- Five students at tables (127.0.0.40-.44) play against a bot all along, three at Halma
  and two at Triomino, a move whenever it is their turn (Halma: a click on a piece, then
  on where a greedy bot would move it; Triomino: a tap on a tile that fits, then on where
  it fits, else the keys D or P), and a new game when one ends.
- Every minute two class students reload their page (it rejoins from its kept pass),
  and once in each game the teacher reloads theirs.

Every minute it prints the memory (PSS) of the server and of the pages' kernels, the
kernels alive, the pages served and the errors so far. At the end: the memory then
against its level after the first game (goal: within 10 %), the errors (goal: 0), and,
once every page is closed, the kernels left over (goal: 0).

    .venv/bin/python bench/classroom_soak.py                 # 15 minutes
    .venv/bin/python bench/classroom_soak.py --minutes 3 --students 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from classroom_hostile import TEACHER, ClassServer, student_address  # noqa: E402
from school import PATIENCE, ClassGame, LivePage, Student, Teacher, student_names  # noqa: E402

from mathgames.classroom.service import Classroom  # noqa: E402
from mathgames.classroom.store import open_store  # noqa: E402
from mathgames.halma.bots import GreedyBot  # noqa: E402
from mathgames.triomino.geometry import cell_id  # noqa: E402
from mathgames.triomino.view import rack_id  # noqa: E402
from tests.page_client import visit  # noqa: E402

TABLES = [("halma", 0), ("halma", 0), ("halma", 0), ("triomino", 2), ("triomino", 2)]


class Soak:
    """What happened so far: pages served, errors (each said once, counted)."""

    def __init__(self, server: ClassServer) -> None:
        self.server = server
        self.served = 0
        self.errors: list[str] = []

    def error(self, what: str) -> None:
        self.errors.append(what)
        print(f"  error: {what}", flush=True)

    async def page(self, path: str, source: str,
                   cookies: dict[str, str] | None = None) -> LivePage:
        page = await visit(self.server.url, path, keep_open=True, timeout=PATIENCE,
                           source=source, cookies=cookies)
        if page.status != 200 or page.error:
            raise RuntimeError(f"{path} from {source}: {page.status} {page.error}")
        self.served += 1
        return LivePage(page)

    def memory(self) -> tuple[float, float, int]:
        """(the server's PSS, the kernels' PSS with their template's, kernels) in MiB."""
        server = kernels = 0.0
        count = 0
        for proc in [self.server.ps, *self.server.ps.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                pss = proc.memory_full_info().pss / 2**20
                if proc.pid == self.server.ps.pid:
                    server = pss
                else:
                    kernels += pss
                    count += any("ipykernel" in part for part in proc.cmdline())
        return server, kernels, count


def _yes_of(page: LivePage, box: str) -> str:
    """The "Yes" button inside the confirmation ``box`` (a CSS class) of a page."""
    todo = [page.widget(box)]
    while todo:
        model = todo.pop()
        state = page.states.get(model, {})
        if "mg-confirm-yes" in state.get("_dom_classes", ()):
            return model
        todo += [ref.removeprefix("IPY_MODEL_") for ref in state.get("children", ())]
    raise LookupError(f"no Yes button in {box}")


async def teacher_again(teacher: Teacher) -> None:
    page = teacher.page
    await page.click("mg-again")
    yes = await page.until(lambda: _yes_of(page, "mg-again-confirm")
                           if page.find("mg-again-confirm") else None, "the Yes button")
    await page._send(yes, {"method": "custom", "content": {"event": "click"}})
    await page.until(lambda: teacher.progress() == (0, 0) and "data-called" in (
        page.value("mg-call-progress") or ""), "a new game")


async def reload_student(soak: Soak, student: Student, source: str) -> None:
    """What a reload does: the page again, with the cookies and the kept pass."""
    cookies = student.page.page.cookies
    await student.page.close()
    student.page = await soak.page("join.ipynb?lang=en", source, cookies)
    await student.page.until(lambda: student.page.find(storage_key=student.KEY), "the grid")
    await student.page.board_message(student.KEY, {"type": "stored", "key": student.KEY,
                                                   "data": student.kept})
    await student.page.until(student.status, "the grid back from the store")


class TablePlayer:
    """A student at a table with a bot: opens it, starts it, plays whenever it is their turn."""

    def __init__(self, soak: Soak, index: int, game: str, game_index: int,
                 store_path: Path) -> None:
        self.soak, self.index, self.game, self.game_index = soak, index, game, game_index
        self.source = f"127.0.0.{40 + index}"
        self.room = Classroom(open_store(str(store_path)))
        self.page: LivePage | None = None
        self.code = ""
        self.moves = 0
        self.games = 0

    async def open(self) -> None:
        self.page = page = await self.soak.page("table.ipynb?lang=en", self.source)
        await page.until(lambda: page.find("mg-open-table"), "the table form")
        await page._send(page.widget(description="Game"), {
            "method": "update", "state": {"index": self.game_index}, "buffer_paths": []})
        await page.type_text(page.widget(description="First name"),  # letters only
                             f"Player {chr(65 + self.index)}")
        await asyncio.sleep(0.5)
        await page.click("mg-open-table")
        found = await page.until(lambda: re.search(r'mg-table-code[^>]*>([^<]+)<',
                                                   page.value("mg-table-info") or ""),
                                 "the table's code")
        self.code = found.group(1).strip()
        await page.click("mg-start-table")
        await page.until(lambda: self.room.load_table(self.code).started, "the game started")

    async def key(self, key: str) -> None:
        assert self.page is not None
        await self.page.board_message("classroom-table", {"type": "key", "key": key})

    async def turn(self) -> None:
        """One move if it is this student's turn (a new game if this one is over)."""
        assert self.page is not None
        state = self.room.load_table(self.code)
        if state.is_over:
            await self.page.click("mg-table-again")
            self.games += 1
            await asyncio.sleep(2)
            return
        if state.to_move != 0:
            return
        game = state.game
        if self.game == "halma":
            move = GreedyBot(seed=self.moves).choose(game)
            await self.page.board_message("classroom-table", {"type": "click",
                                                              "cell": move.start})
            await asyncio.sleep(0.3)
            await self.page.board_message("classroom-table", {"type": "click",
                                                              "cell": move.end})
        elif game.legal_placements():  # a tap on a tile of the rack, then where it fits
            place = game.legal_placements()[0]
            await self.page._send(self.page.widget("mg-triomino-rack"), {
                "method": "custom", "content": {"type": "click", "cell": rack_id(place.tile)}})
            await asyncio.sleep(0.3)
            await self.page.board_message("classroom-table", {"type": "click",
                                                              "cell": cell_id(place.cell)})
        elif game.can_draw():  # the keys D (draw) and P (pass), as the page offers them
            await self.key("d")
        elif game.can_pass():
            await self.key("p")
        self.moves += 1

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.turn()
            except Exception as error:  # the soak counts it and goes on
                self.soak.error(f"table {self.index} ({self.game}): "
                                f"{type(error).__name__}: {str(error)[:150]}")
                await asyncio.sleep(5)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 2.5)

    async def close(self) -> None:
        if self.page is not None:
            await self.page.close()
            self.page = None


async def soak_run(args: argparse.Namespace, workdir: Path) -> None:
    server = ClassServer(workdir, None)
    soak = Soak(server)
    start = time.monotonic()
    stop = asyncio.Event()
    students: list[Student] = []
    teacher: Teacher | None = None
    tables: list[TablePlayer] = []
    after_first: tuple[float, float, int] | None = None
    samples: list[str] = []

    async def report() -> None:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 60)
            server_pss, kernels_pss, alive = soak.memory()
            line = (f"{(time.monotonic() - start) / 60:5.1f} min: server {server_pss:6.0f} MiB,"
                    f" kernels {kernels_pss:7.0f} MiB, kernels alive {alive:3}, pages served"
                    f" {soak.served:4}, errors {len(soak.errors)}")
            samples.append(line)
            print(line, flush=True)

    reporter = asyncio.ensure_future(report())
    try:
        teacher = Teacher(await soak.page("teacher.ipynb?lang=en", TEACHER))
        code = await teacher.open_class()
        names = student_names(args.students)

        async def join(i: int) -> Student:
            page = await soak.page(f"join.ipynb?lang=en&code={code}", student_address(i))
            student = Student(page, names[i], i)
            await student.join(code)
            return student

        students = list(await asyncio.gather(*(join(i) for i in range(args.students))))
        store_path = workdir / "data" / "classroom.sqlite3"
        for i, (game, index) in enumerate(TABLES):
            player = TablePlayer(soak, i, game, index, store_path)
            tables.append(player)
            try:
                await player.open()
            except Exception as error:  # the soak counts it and goes on without the table
                soak.error(f"table {i} ({game}) did not open: {type(error).__name__}: "
                           f"{str(error)[:150]}")
                await player.close()
        tables = [player for player in tables if player.code]
        playing = [asyncio.ensure_future(player.play(stop)) for player in tables]
        interval = max(1.5, (args.minutes * 60 - (time.monotonic() - start) - 90)
                       / (args.games * args.calls))
        rng = random.Random(55)
        last_reload = time.monotonic()
        for game_number in range(args.games):
            game = ClassGame(server.url, len(students))
            game.teacher, game.students = teacher, students
            for student in students:
                student.cells = []
            for k in range(args.calls):
                called_at = time.monotonic()
                await teacher.page.until(
                    lambda: teacher.page.value("mg-call-button", "disabled") is False,
                    "the call button again")
                try:
                    await game.call()
                except Exception as error:  # the soak counts it and goes on
                    soak.error(f"game {game_number + 1}, call {k + 1}: "
                               f"{type(error).__name__}: {str(error)[:150]}")
                if k == args.calls // 2:
                    await teacher.reload(server.url)
                    soak.served += 1
                if time.monotonic() - last_reload >= 60 and k < args.calls - 1:
                    last_reload = time.monotonic()
                    for i in rng.sample(range(len(students)), 2):
                        try:
                            await reload_student(soak, students[i], student_address(i))
                        except Exception as error:  # the soak counts it and goes on
                            soak.error(f"reload of student {i}: {type(error).__name__}: "
                                       f"{str(error)[:150]}")
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - called_at)))
            try:
                if args.calls == 25:
                    await game.check_csv()
            except Exception as error:  # the soak counts it and goes on
                soak.error(f"game {game_number + 1}'s CSV: {type(error).__name__}: {error}")
            if game_number == 0:
                await asyncio.sleep(5)
                after_first = soak.memory()
                print(f"after the first game: server {after_first[0]:.0f} MiB, kernels "
                      f"{after_first[1]:.0f} MiB, {after_first[2]} kernels", flush=True)
            if game_number < args.games - 1:
                await teacher_again(teacher)
        while time.monotonic() - start < args.minutes * 60:
            await asyncio.sleep(5)  # the tables play on until the lesson's end
        at_end = soak.memory()
        stop.set()
        await asyncio.gather(*playing)
        moves = sum(player.moves for player in tables)
        games = sum(player.games for player in tables)
    finally:
        stop.set()
        reporter.cancel()
        pages = [s.page for s in students] + ([teacher.page] if teacher else [])
        await asyncio.gather(*(page.close() for page in pages), return_exceptions=True)
        await asyncio.gather(*(player.close() for player in tables), return_exceptions=True)
        closed = time.monotonic()
        while soak.memory()[2] and time.monotonic() - closed < 120:
            await asyncio.sleep(1)
        left_over = soak.memory()[2]
        server.stop()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print()
    print(f"Soak: {args.minutes} minutes on {os.cpu_count()} cores (load average {load:.1f} at "
          f"the end); {args.students} students, {args.games} Matematiko games of {args.calls}"
          f" calls (a call every "
          f"{interval:.1f} s), 5 tables with a bot (3 Halma, 2 Triomino), 2 reloads a minute")
    for line in samples:
        print("  " + line)
    assert after_first is not None
    total_first, total_end = after_first[0] + after_first[1], at_end[0] + at_end[1]
    print(f"pages served {soak.served}, errors {len(soak.errors)}, table moves {moves}, "
          f"table games finished {games}")
    print(f"memory (server + kernels, PSS) after the first game {total_first:.0f} MiB "
          f"({after_first[2]} kernels), at the end {total_end:.0f} MiB ({at_end[2]} kernels):"
          f" {100 * (total_end - total_first) / total_first:+.1f} %")
    print(f"kernels left over 2 minutes after every page closed: {left_over}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15)
    parser.add_argument("--students", type=int, default=30, help="at most 30")
    parser.add_argument("--games", type=int, default=3, help="class games, one after another")
    parser.add_argument("--calls", type=int, default=25, help="numbers called in each game")
    args = parser.parse_args()
    AsyncHTTPClient.configure(None, max_clients=args.students + 20)
    workdir = Path(tempfile.mkdtemp(prefix="mathgames-soak-"))
    shutil.copytree(ROOT / "notebooks", workdir / "notebooks")
    try:
        asyncio.run(soak_run(args, workdir))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
