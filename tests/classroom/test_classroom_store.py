"""The store against both real backends: SQLite and a real PostgreSQL server."""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathgames.classroom.store import (
    MAX_EVENT_CHARS,
    SqliteStore,
    Store,
    StoreConflict,
    StoreError,
    UnknownSessionError,
    _idle_query,
    _sessions_query,
    open_store,
)


def test_append_numbers_events_and_refuses_a_taken_place(store: Store) -> None:
    code = store.create("class", {"game": "matematiko"})
    assert store.session(code).settings == {"game": "matematiko"}
    assert store.append(code, 0, {"n": 1}) == 1
    assert store.append(code, 1, {"n": 2}) == 2
    with pytest.raises(StoreConflict):
        store.append(code, 1, {"n": "late"})
    with pytest.raises(StoreConflict):
        store.append(code, 5, {"n": "ahead"})
    assert [(e.seq, e.data) for e in store.events(code)] == [(1, {"n": 1}), (2, {"n": 2})]
    assert [e.seq for e in store.events(code, after_seq=1)] == [2]
    assert store.last_seq(code) == 2


def test_sessions_are_separate_and_listed_by_kind(store: Store) -> None:
    a = store.create("class")
    b = store.create("table", {"class": a})
    store.append(a, 0, {"x": 1})
    assert store.events(b) == []
    assert [s.code for s in store.sessions("table")] == [b]
    assert {s.code for s in store.sessions()} == {a, b}


def test_sessions_since_a_time_are_read_without_the_older_ones(store: Store) -> None:
    old = "OLD01"  # a table stamped long ago
    assert store._insert_session(old, "table", '{"class": "K3M9T"}', 1000.0)
    a = store.create("class")
    b = store.create("table", {"class": a})
    born = store.session(a).created
    assert [s.code for s in store.sessions("table", since=born)] == [b]
    assert {s.code for s in store.sessions(since=born)} == {a, b}
    assert store.sessions("table", since=born + 3600) == []
    assert [s.code for s in store.sessions("table", since=999.0)] == [old, b]  # oldest first
    assert old in {s.code for s in store.sessions("table")}


def test_the_sqlite_store_finds_recent_sessions_by_its_index(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    try:
        plan = store._db.execute(
            "EXPLAIN QUERY PLAN " + _sessions_query("sessions", "?", "table", 5.0)[0],
            ("table", 5.0)).fetchall()
    finally:
        store.close()
    assert any("USING INDEX sessions_by_kind" in row[-1] for row in plan), plan


def test_forgotten_sessions_leave_no_trace_and_refuse_appends(store: Store) -> None:
    gone, kept = store.create("class"), store.create("table", {"class": "K3M9T"})
    for seq in range(3):
        store.append(gone, seq, {"type": "join", "name": f"Ann{seq}"})
    store.append(kept, 0, {"type": "join", "name": "Ben"})
    assert store.forget([gone, "AAAAA"]) == 1  # an unknown code is skipped
    with pytest.raises(UnknownSessionError):
        store.session(gone)
    with pytest.raises(UnknownSessionError):
        store.append(gone, 3, {"type": "call"})
    assert store.events(gone) == []
    with pytest.raises(UnknownSessionError):  # a page waiting on it learns it at the end
        store.wait(gone, 3, timeout=0.2)
    assert [e.data["name"] for e in store.events(kept)] == ["Ben"]
    assert [s.code for s in store.sessions()] == [kept]
    assert store.forget([]) == 0


def test_only_sessions_idle_since_the_time_are_forgotten(store: Store) -> None:
    idle = "IDLE3"  # opened long ago, nothing done since
    assert store._insert_session(idle, "class", "{}", 1000.0)
    busy = "BUSY4"  # opened long ago, played today
    assert store._insert_session(busy, "table", "{}", 1000.0)
    store.append(busy, 0, {"type": "join", "name": "Ann"})
    new = store.create("class")
    assert store.forget_idle(time.time() - 3600) == 1
    assert {s.code for s in store.sessions()} == {busy, new}
    assert store.forget_idle(time.time() + 1) == 2
    assert store.sessions() == []


def test_a_waiter_learns_that_its_session_was_forgotten(store_url: str) -> None:
    reader, writer = open_store(store_url), open_store(store_url)
    try:
        code = writer.create("class")
        writer.append(code, 0, {"type": "open"})
        thread = threading.Timer(0.3, writer.forget, ([code],))
        thread.start()
        with pytest.raises(UnknownSessionError):
            reader.wait(code, 1, timeout=1.5)
        thread.join()
    finally:
        reader.close()
        writer.close()


def test_the_sqlite_store_finds_idle_sessions_by_its_index(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    try:
        plan = store._db.execute("EXPLAIN QUERY PLAN " + _idle_query("sessions", "events", "?"),
                                 (5.0, 5.0)).fetchall()
    finally:
        store.close()
    assert any("USING INDEX sessions_by_kind" in row[-1] for row in plan), plan
    assert not any(row[-1].startswith("SCAN") for row in plan), plan


def test_unknown_codes_and_bad_events_are_refused(store: Store) -> None:
    with pytest.raises(UnknownSessionError):
        store.session("AAAAA")
    with pytest.raises(UnknownSessionError):
        store.append("AAAAA", 0, {"x": 1})
    code = store.create("class")
    with pytest.raises(StoreError):
        store.append(code, 0, {"x": "y" * MAX_EVENT_CHARS})
    with pytest.raises(StoreError):
        store.create("party")
    assert store.events(code) == []


def test_a_waiter_wakes_when_another_connection_appends(store_url: str) -> None:
    reader, writer = open_store(store_url), open_store(store_url)
    try:
        code = writer.create("class")

        def append_soon() -> None:
            time.sleep(0.3)
            writer.append(code, 0, {"called": 7})

        thread = threading.Thread(target=append_soon)
        thread.start()
        found = reader.wait(code, 0, timeout=20)
        thread.join()
        assert [e.data for e in found] == [{"called": 7}]
        assert reader.wait(code, 1, timeout=0.2) == []
    finally:
        reader.close()
        writer.close()


def test_a_class_survives_a_restart(store_url: str) -> None:
    first = open_store(store_url)
    code = first.create("class", {"seed": 4})
    first.append(code, 0, {"type": "open"})
    first.close()
    again = open_store(store_url)
    try:
        assert again.session(code).settings == {"seed": 4}
        assert [e.data for e in again.events(code)] == [{"type": "open"}]
    finally:
        again.close()


def _writer(url: str, code: str, writer: int, count: int) -> int:
    """Append ``count`` events the way a kernel does: read, try, retry on conflict."""
    store = open_store(url)
    conflicts = 0
    try:
        for i in range(count):
            while True:
                last = store.last_seq(code)
                try:
                    store.append(code, last, {"writer": writer, "i": i})
                    break
                except StoreConflict:
                    conflicts += 1
    finally:
        store.close()
    return conflicts


def test_concurrent_writers_in_many_processes_lose_nothing(store_url: str) -> None:
    setup = open_store(store_url)
    code = setup.create("class")
    writers, count = 6, 25
    context = multiprocessing.get_context("spawn")
    with context.Pool(writers) as pool:
        pool.starmap(_writer, [(store_url, code, w, count) for w in range(writers)])
    events = setup.events(code)
    setup.close()
    assert [e.seq for e in events] == list(range(1, writers * count + 1))
    written = sorted((e.data["writer"], e.data["i"]) for e in events)
    assert written == [(w, i) for w in range(writers) for i in range(count)]
    for w in range(writers):  # each writer's events keep their order
        assert [e.data["i"] for e in events if e.data["writer"] == w] == list(range(count))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(-1, 6), st.integers(0, 99)), max_size=25))
def test_appends_match_a_list_model(store: Store, attempts: list[tuple[int, int]]) -> None:
    """An append succeeds exactly when it names the end of the log, as on a plain list."""
    code = store.create("class")
    model: list[int] = []
    for expected, value in attempts:
        if expected == len(model):
            assert store.append(code, expected, {"v": value}) == len(model) + 1
            model.append(value)
        else:
            with pytest.raises(StoreConflict):
                store.append(code, expected, {"v": value})
    assert [e.data["v"] for e in store.events(code)] == model
    cut = len(model) // 2
    assert [e.data["v"] for e in store.events(code, cut)] == model[cut:]


def test_the_setting_picks_the_backend(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("MATHGAMES_STORE", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    store = open_store()
    assert type(store).__name__ == "SqliteStore" and (tmp_path / "x.sqlite3").exists()
    store.close()
    monkeypatch.delenv("MATHGAMES_STORE")
    monkeypatch.setenv("MATHGAMES_DATA_DIR", str(tmp_path / "data"))
    store = open_store()
    assert store.path == tmp_path / "data" / "classroom.sqlite3"  # type: ignore[attr-defined]
    journal = store._db.execute("PRAGMA journal_mode").fetchone()[0]  # type: ignore[attr-defined]
    assert journal == "wal"
    store.close()
    with pytest.raises(StoreError):
        open_store("sqlite:nothing")


def test_a_waiter_for_calls_sleeps_through_placements(store_url: str) -> None:
    reader, writer = open_store(store_url), open_store(store_url)
    try:
        code = writer.create("class")
        writer.append(code, 0, {"type": "place"})
        assert reader.wait(code, 0, timeout=0.5, kinds=frozenset({"call"})) == []

        def call_soon() -> None:
            time.sleep(0.3)
            writer.append(code, 1, {"type": "place"})
            writer.append(code, 2, {"type": "call"})

        thread = threading.Thread(target=call_soon)
        thread.start()
        found = reader.wait(code, 1, timeout=20, kinds=frozenset({"call"}))
        thread.join()
        assert [e.data["type"] for e in found] == ["place", "call"]
    finally:
        reader.close()
        writer.close()


def test_two_waiters_on_one_store_do_not_wait_for_each_other(store_url: str) -> None:
    # several pages' live feeds in one kernel share a store: a feed watching a quiet
    # session must not hold up one whose session moves
    store, writer = open_store(store_url), open_store(store_url)
    try:
        quiet, busy = writer.create("class"), writer.create("class")
        results: dict[str, list] = {}

        def watch(name: str, code: str) -> None:
            results[name] = store.wait(code, 0, timeout=60)

        slow = threading.Thread(target=watch, args=("quiet", quiet), daemon=True)
        slow.start()
        time.sleep(0.3)  # the quiet feed is waiting first
        fast = threading.Thread(target=watch, args=("busy", busy), daemon=True)
        fast.start()
        time.sleep(0.3)
        writer.append(busy, 0, {"called": 4})
        fast.join(timeout=30)
        assert not fast.is_alive() and [e.data for e in results["busy"]] == [{"called": 4}]
        assert slow.is_alive() and "quiet" not in results  # still waiting for its own session
        writer.append(quiet, 0, {"called": 9})
        slow.join(timeout=30)
        assert [e.data for e in results["quiet"]] == [{"called": 9}]
        if store_url.startswith("postgresql"):  # the two listeners wait for later waits
            listeners = len(store._listeners)
            assert listeners == 2
            store.wait(busy, 1, timeout=0.1)
            assert len(store._listeners) == listeners
    finally:
        store.close()
        writer.close()


def test_a_lost_listen_connection_is_replaced_and_forgotten(pg_url: str) -> None:
    from tests.classroom.conftest import fresh_database

    store = open_store(fresh_database(pg_url))
    try:
        code = store.create("class")
        store.append(code, 0, {"called": 4})
        store.wait(code, 1, timeout=0.05)  # opens one listener, idle afterwards
        (lost,) = store._listeners
        lost.close()  # as if the server had dropped it
        assert [e.data for e in store.wait(code, 0, timeout=1)] == [{"called": 4}]
        assert len(store._listeners) == 1 and store._listeners[0] is not lost
        assert not store._listeners[0].closed
    finally:
        store.close()
