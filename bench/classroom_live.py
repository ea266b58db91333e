"""Live classroom latency: 40 simulated students in one class, for SQLite and PostgreSQL.

Each simulated student is what a student's kernel runs: its own store
connection, a :class:`~mathgames.pages.live.LiveFeed` on an asyncio
event loop (the same class the pages use: SQLite polls every 0.1 s, PostgreSQL
waits for NOTIFY), the class state folded from the log, and a checked
``place`` through :class:`~mathgames.classroom.service.Classroom` as soon as a
number is called. The teacher (the main process) calls the 25 numbers, each
after every student has placed the previous one. The students are spread over
a few worker processes (``--workers``), each student with its own connection
and feed thread, as 40 kernels would have.

Measured per call and student: the time from the teacher's call (just before
the append) to the moment that student's feed handed the call to the page,
i.e. when the page would redraw (browser rendering not included). Also: store
operations per second of one process (appends, reads of new events), and the
CPU seconds used, since wall-clock figures are distorted when other work
shares the machine.

    python bench/classroom_live.py                  # both backends, 40 students
    python bench/classroom_live.py --backend sqlite --students 10

``--school`` measures a school's server instead (``tests/classroom/school.py``): a
throwaway PostgreSQL, two app servers (the ``make app`` command) over it and Debian's
HAProxy in front with ``deploy/haproxy.cfg``; the teacher's and the students' pages
are opened through the proxy at the protocol level (the page fetched, its kernel's
websocket open, the widgets' messages as a browser sends them), so the students are
spread over both servers by the proxy. Measured: call to student's page (from the
teacher's press to the student's page receiving the number from its kernel), the
store's writes per second, connections per page, CPU seconds and memory of the
servers and their pages' kernels. With ``--kill-after K`` the teacher's app server is
killed after the K-th number: the time until every page it held has reloaded through
the proxy and is playing again on the other server is measured.

    python bench/classroom_live.py --school --students 40 --kill-after 10

PostgreSQL: ``--pg-url postgresql://...``, or a throwaway server started from
Debian's ``postgresql`` package (as the tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from pgserver import store_urls  # noqa: E402

from mathgames.classroom.service import Classroom  # noqa: E402
from mathgames.classroom.store import open_store  # noqa: E402
from mathgames.pages.live import LiveFeed  # noqa: E402


def student_worker(url: str, code: str, names: list[str], results: multiprocessing.Queue,
                   ready: multiprocessing.Event) -> None:  # type: ignore[valid-type]
    """Run several simulated students (one connection and one feed each) until the game ends."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    students = []
    for name in names:
        room = Classroom(open_store(url))
        pid, token = room.join_class(code, name)
        state = room.load_class(code)
        students.append({"room": room, "pid": pid, "token": token, "state": state})
    done = loop.create_future()
    finished = [0]

    def make_callback(student: dict) -> object:
        def on_events(events: list) -> None:
            seen = time.time()
            state = student["state"].fold(events)
            mine = state.students[student["pid"]]
            while len(mine.cells) < len(state.calls):
                index = len(mine.cells)
                results.put(("latency", index, seen))
                cell = index  # any free cell will do
                student["state"] = state = student["room"].place(
                    code, student["pid"], student["token"], index, cell, state=state)
                mine = state.students[student["pid"]]
            if state.is_over and not student.get("over"):
                student["over"] = True
                finished[0] += 1
                if finished[0] == len(students) and not done.done():
                    done.set_result(True)
        return on_events

    feeds = [LiveFeed(s["room"].store, code, s["state"].seq, make_callback(s), timeout=1.0,
                      kinds=frozenset({"call"})) for s in students]  # as the join page does
    for feed in feeds:
        feed.start()
    ready.set()
    loop.run_until_complete(asyncio.wait_for(done, timeout=600))
    for feed in feeds:
        feed.stop()
    for s in students:
        s["room"].store.close()
    results.put(("cpu", time.process_time(), 0.0))


def store_ops(url: str, count: int = 400) -> tuple[float, float]:
    """Appends per second and reads of new events per second, one process, one connection."""
    store = open_store(url)
    try:
        code = store.create("class")
        start = time.perf_counter()
        for k in range(count):
            store.append(code, k, {"type": "call", "card": 1 + k % 13})
        appends = count / (time.perf_counter() - start)
        start = time.perf_counter()
        for k in range(count):
            store.events(code, count - 2 - k % 5)
        reads = count / (time.perf_counter() - start)
    finally:
        store.close()
    return appends, reads


def run_class(url: str, students: int, workers: int) -> dict[str, float]:
    teacher_room = Classroom(open_store(url))
    code, token = teacher_room.open_class(seed=42)
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    names = [f"Student {chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(students)]
    groups = [names[w::workers] for w in range(workers)]
    readies = [context.Event() for _ in groups]
    processes = [context.Process(target=student_worker, args=(url, code, g, results, r))
                 for g, r in zip(groups, readies, strict=True) if g]
    for process in processes:
        process.start()
    for ready in readies[:len(processes)]:
        if not ready.wait(timeout=300):
            raise RuntimeError("a worker did not start")
    latencies: list[float] = []
    call_times: dict[int, float] = {}
    cpu_workers = 0.0
    finished_workers = 0
    cpu_start = time.process_time()
    wall_start = time.perf_counter()
    state = teacher_room.load_class(code)
    for k in range(25):
        call_times[k] = time.time()
        state = teacher_room.call(code, token, state=state)
        received = 0
        while received < students:
            kind, index, seen = results.get(timeout=300)
            if kind == "latency":
                latencies.append(seen - call_times[index])
                received += 1
            else:  # a worker whose students are done already
                cpu_workers += index
                finished_workers += 1
        while True:  # wait until every placement of this call is in the log
            state = teacher_room.refresh(state)
            if not state.waiting():
                break
            time.sleep(0.01)
    wall = time.perf_counter() - wall_start
    while finished_workers < len(processes):
        kind, cpu, _ = results.get(timeout=120)
        if kind == "cpu":
            cpu_workers += cpu
            finished_workers += 1
    for process in processes:
        process.join(timeout=60)
    teacher_room.store.close()
    latencies.sort()
    return {
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[int(0.95 * (len(latencies) - 1))] * 1000,
        "max": latencies[-1] * 1000,
        "count": len(latencies),
        "wall": wall,
        "cpu": time.process_time() - cpu_start + cpu_workers,
        "events": 25 * (students + 1),
    }


def _tree(pid: int) -> list[Any]:
    import psutil

    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _cpu(processes: list[Any]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system
        except Exception:  # ended meanwhile
            pass
    return total


def run_school(students: int, kill_after: int | None) -> dict[str, Any]:
    """A whole class game through the proxy (see the module's docstring)."""
    import psycopg
    from school import School

    school = School()
    try:
        return asyncio.run(_school_game(school, students, kill_after, psycopg))
    finally:
        school.stop()


async def _school_game(school: Any, students: int, kill_after: int | None,
                       psycopg: Any) -> dict[str, Any]:
    from school import ClassGame

    apps = [app.process.pid for app in school.apps]
    cpu_before = [_cpu(_tree(pid)) for pid in apps]
    game = ClassGame(school.url, students)
    opened = time.perf_counter()
    await game.open()
    open_seconds = time.perf_counter() - opened
    assert game.teacher is not None
    result: dict[str, Any] = {"spread": {}, "open": open_seconds,
                              "cpu_open": [_cpu(_tree(pid)) - before
                                           for pid, before in zip(apps, cpu_before, strict=True)]}
    for student in game.students:
        result["spread"][student.page.server] = result["spread"].get(student.page.server, 0) + 1
    with psycopg.connect(school.pg.url, autocommit=True) as db:
        events_before = db.execute("SELECT count(*) FROM mathgames_events").fetchone()[0]
        start = time.perf_counter()
        for k in range(25):
            await game.call()
            if k == 4:  # every page open and live: what they hold
                result["connections"] = db.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                    "'client backend' AND pid <> pg_backend_pid()").fetchone()[0]
                kernels = [p for pid in apps for p in _tree(pid)[1:]
                           if p.ppid() != pid]  # forked from the template
                result["uss"] = sorted(p.memory_full_info().uss for p in kernels)
                result["server_rss"] = [_tree(pid)[0].memory_info().rss for pid in apps]
                result["template_uss"] = [p.memory_full_info().uss for pid in apps
                                          for p in _tree(pid)[1:] if p.ppid() == pid]
            if kill_after is not None and k + 1 == kill_after:
                result["kill"] = await _kill_and_resume(school, game)
        result["wall"] = time.perf_counter() - start
        result["events"] = (db.execute("SELECT count(*) FROM mathgames_events").fetchone()[0]
                            - events_before)
    await game.check_csv()
    result["cpu"] = [_cpu(_tree(pid)) - before if school.apps[i].process.poll() is None
                     else float("nan") for i, (pid, before) in enumerate(
                         zip(apps, cpu_before, strict=True))]
    result["pages"] = students + 1
    result["latencies"] = sorted(game.latencies)
    await game.close()
    return result


async def _kill_and_resume(school: Any, game: Any) -> dict[str, float]:
    """Kill the teacher's app server; every page it held reloads through the proxy at once:
    the seconds until each is playing again (its grid back from the store)."""
    teacher = game.teacher
    dead = teacher.page.server
    orphans = [s for s in game.students if s.page.server == dead]
    killed = time.perf_counter()
    school.kill_app(int(dead[-1]) - 1)
    back: list[float] = []

    async def resume(page_owner: Any) -> None:
        await page_owner.page.until(lambda: page_owner.page.closed, "the lost connection")
        await page_owner.reload(school.url)
        back.append(time.perf_counter() - killed)

    await asyncio.gather(resume(teacher), *(resume(s) for s in orphans))
    return {"pages": len(orphans) + 1, "max": max(back), "median": statistics.median(back)}


def print_school(result: dict[str, Any], students: int) -> None:
    lat = result["latencies"]
    print(f"\nA school's server: {students} students and a teacher through HAProxy, two app "
          f"servers over one PostgreSQL, {os.cpu_count()} CPUs (shared with other work)")
    print(f"students per server: {result['spread']}; pages opened in {result['open']:.1f} s")
    print("| call -> student's page, p50 | p95 | max | updates | store writes/s (game) | "
          "connections per page | CPU s per page (servers and kernels): opening + the game | "
          "kernel USS, median |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    killed = any(c != c for c in result["cpu"])  # a killed server's CPU time is gone
    pages = result["pages"]
    cpu_open = sum(result["cpu_open"]) / pages
    cpu_text = (f"{cpu_open:.2f} + - (a server was killed)" if killed else
                f"{cpu_open:.2f} + {sum(result['cpu']) / pages - cpu_open:.2f}")
    uss = result["uss"]
    print(f"| {statistics.median(lat) * 1000:.0f} ms | "
          f"{lat[int(0.95 * (len(lat) - 1))] * 1000:.0f} ms | {lat[-1] * 1000:.0f} ms | "
          f"{len(lat)} | {result['events'] / result['wall']:.1f} | "
          f"{result['connections'] / result['pages']:.2f} | "
          f"{cpu_text} | "
          f"{statistics.median(uss) / 2**20:.0f} MiB |")
    print(f"game: {result['events']} events in {result['wall']:.1f} s; {len(uss)} kernels; "
          f"app servers' RSS {[round(r / 2**20) for r in result['server_rss']]} MiB; "
          f"PostgreSQL connections {result['connections']} for {result['pages']} pages; "
          f"kernel templates' USS {[round(r / 2**20) for r in result['template_uss']]} MiB")
    if "kill" in result:
        kill = result["kill"]
        print(f"killed server: {kill['pages']} pages (teacher included) playing again on the "
              f"other server after {kill['median']:.1f} s (median), {kill['max']:.1f} s (all)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--pg-url", default="")
    parser.add_argument("--school", action="store_true",
                        help="two app servers behind HAProxy, pages through the proxy")
    parser.add_argument("--kill-after", type=int, default=None,
                        help="with --school: kill the teacher's server after this number")
    args = parser.parse_args(argv)
    if args.school:
        print_school(run_school(args.students, args.kill_after), args.students)
        return 0
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    rows = []
    with store_urls(args.pg_url) as url:
        for backend in backends:
            appends, reads = store_ops(url(backend))
            result = run_class(url(backend), args.students, args.workers)
            rows.append((backend, result, appends, reads))
    print(f"\nLive classroom: {args.students} students, 25 calls, {args.workers} worker "
          f"processes, {os.cpu_count()} CPUs")
    print("| backend | wakeup | call -> student's page, p50 | p95 | max | updates | "
          "class events/s | appends/s (1 process) | reads/s | CPU s (all) | wall s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for backend, r, appends, reads in rows:
        wakeup = "poll 0.1 s" if backend == "sqlite" else "LISTEN/NOTIFY"
        print(f"| {backend} | {wakeup} | {r['p50']:.0f} ms | {r['p95']:.0f} ms | "
              f"{r['max']:.0f} ms | {r['count']:.0f} | {r['events'] / r['wall']:.0f} | "
              f"{appends:.0f} | {reads:.0f} | {r['cpu']:.1f} | {r['wall']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
