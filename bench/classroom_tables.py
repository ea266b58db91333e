"""The teacher's list of tables in a store that has served a school for a long time.

A teacher's page refreshes the list of its class's tables every 3 seconds. A store
on a school server keeps every table ever opened, so the list must not read them
all: :meth:`~mathgames.classroom.service.Classroom.tables_of` asks the store only
for the tables opened since the class (less an hour for servers' clocks), which an
index on kind and time finds. For each backend and each number of old tables (of
other, earlier classes; bulk-loaded), it prints the median time of one refresh of
a class with 10 tables of its own (each a Halma game of a few moves) beside the
time to read every table, which is what the list cost when it read them all.
Then it times the deletion of the old tables as a store kept 30 days does it
(:meth:`~mathgames.classroom.store.Store.forget_idle`, run whenever a class or a
table is opened): once with all of them idle, then with nothing left to delete.

    .venv/bin/python bench/classroom_tables.py                    # both backends
    .venv/bin/python bench/classroom_tables.py --backend sqlite --sizes 1000 100000

PostgreSQL: ``--pg-url postgresql://...`` (an empty database), or a throwaway
server started from Debian's ``postgresql`` package (as the tests do).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from pgserver import store_urls  # noqa: E402

from mathgames.classroom.service import Classroom  # noqa: E402
from mathgames.classroom.store import Store, open_store  # noqa: E402
from mathgames.halma.bots import GreedyBot  # noqa: E402

REPEATS = 7


def old_rows(start: int, count: int) -> list[tuple[str, str, str, float]]:
    """``count`` tables of earlier classes, a minute apart, a year and more ago."""
    long_ago = time.time() - 400 * 86400
    return [(f"Z{n:08d}", "table",
             json.dumps({"game": "halma", "seats": 2, "seed": n, "class": f"C{n % 997:04d}"}),
             long_ago + 60 * n) for n in range(start, start + count)]


def fill_sqlite(url: str, rows: list[tuple[str, str, str, float]]) -> None:
    db = sqlite3.connect(url.removeprefix("sqlite:///"))
    with db:
        db.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?)", rows)
    db.close()


def fill_postgres(url: str, rows: list[tuple[str, str, str, float]]) -> None:
    import psycopg

    with psycopg.connect(url) as db, db.cursor() as cursor, cursor.copy(
            "COPY mathgames_sessions (code, kind, settings, created) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def median_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def a_class_with_tables(room: Classroom) -> str:
    """A class with 10 Halma tables, two moves played at each."""
    code, _teacher = room.open_class()
    for _ in range(10):
        table = room.open_table("halma", 2, class_code=code, bots="easy")
        pid, token, _seat = room.join_table(table, "Ann")
        state = room.start_table(table, pid, token)
        if state.is_bot(state.to_move):
            state = room.bot_step(state)
        move = str(GreedyBot(seed=1).choose(state.game))
        room.bot_step(room.move(table, pid, token, move, state=state))
    return code


def measure(url: str, fill: Callable[[str, list], None], sizes: list[int]
            ) -> tuple[list[tuple], tuple[int, float, float]]:
    """The list's rows for each size, and (tables deleted, ms to delete them, ms of a
    deletion with nothing left to delete)."""
    rows = []
    store: Store = open_store(url)
    try:
        room = Classroom(store)
        code = a_class_with_tables(room)
        loaded = 0
        for size in sizes:
            fill(url, old_rows(loaded, size - loaded))
            loaded = size
            known: dict = {}
            assert len(room.tables_of(code, known)) == 10  # the page's first look
            every = median_ms(lambda: store.sessions("table"))
            mine = median_ms(lambda known=known: room.tables_of(code, known))
            rows.append((size, every, mine))
        month_ago = time.time() - 30 * 86400
        start = time.perf_counter()
        deleted = store.forget_idle(month_ago)
        first = 1000 * (time.perf_counter() - start)
        assert deleted == sizes[-1] and len(room.tables_of(code)) == 10  # the class stays
        steady = median_ms(lambda: store.forget_idle(month_ago))
    finally:
        store.close()
    return rows, (deleted, first, steady)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--pg-url", default="")
    args = parser.parse_args(argv)
    sizes = sorted(args.sizes)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    results, purges = [], []
    with store_urls(args.pg_url) as url:
        for backend in backends:
            fill = fill_sqlite if backend == "sqlite" else fill_postgres
            rows, purge = measure(url(backend), fill, sizes)
            results += [(backend, *row) for row in rows]
            purges.append((backend, *purge))
    print(f"\nThe teacher's list of tables (a class of 10 tables; median of {REPEATS}, "
          f"{os.cpu_count()} CPUs)")
    print("| backend | old tables in the store | every table read, ms | "
          "the class's tables (the list's refresh), ms |")
    print("|---|---:|---:|---:|")
    for backend, size, every, mine in results:
        print(f"| {backend} | {size:,} | {every:.1f} | {mine:.1f} |")
    print("\nDeleting what a store kept 30 days holds no longer (forget_idle, as a class opens)")
    print("| backend | old tables deleted | their deletion, ms | then, with none left, ms |")
    print("|---|---:|---:|---:|")
    for backend, deleted, first, steady in purges:
        print(f"| {backend} | {deleted:,} | {first:.1f} | {steady:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
