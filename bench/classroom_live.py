"""Live classroom latency: 40 simulated students in one class, for SQLite and PostgreSQL.

Each simulated student is what a student's kernel runs: its own store
connection, a :class:`~mathgames.app.classroom_live.LiveFeed` on an asyncio
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from pgserver import store_urls  # noqa: E402

from mathgames.app.classroom_live import LiveFeed  # noqa: E402
from mathgames.classroom.service import Classroom  # noqa: E402
from mathgames.classroom.store import open_store  # noqa: E402


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--pg-url", default="")
    args = parser.parse_args(argv)
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
