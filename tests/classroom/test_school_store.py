"""The PostgreSQL store when the database restarts: nothing lost, a clear "try again".

A throwaway PostgreSQL server of this module's own (``pgserver.py``), stopped and started
again as an administrator's restart does (a fast shutdown cuts every connection).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from pgserver import PostgresServer

from mathgames.classroom.service import Classroom
from mathgames.classroom.store import Event, PostgresStore, StoreUnavailable, open_store
from mathgames.core.i18n import set_language
from mathgames.pages.live import LiveFeed


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def restarted(pg: PostgresServer) -> Iterator[PostgresServer]:
    """The server, running again after the test whatever happened in it."""
    yield pg
    if pg.process.poll() is not None:
        pg.start()


def test_every_operation_reconnects_after_a_restart(restarted: PostgresServer) -> None:
    store = open_store(restarted.url)
    assert isinstance(store, PostgresStore)
    try:
        code = store.create("class")
        assert store.append(code, 0, {"type": "call", "card": 7}) == 1
        restarted.halt()
        with pytest.raises(StoreUnavailable, match="try again in a moment"):
            store.append(code, 1, {"type": "call", "card": 9})
        with pytest.raises(StoreUnavailable):
            store.events(code)
        set_language("pl")
        with pytest.raises(StoreUnavailable, match="spróbuj ponownie"):
            store.session(code)
        set_language("en")
        restarted.start()
        # the same store object: a new connection, and the refused append is not there
        assert [e.data["card"] for e in store.events(code)] == [7]
        assert store.append(code, 1, {"type": "call", "card": 9}) == 2
        assert [e.data["card"] for e in store.events(code)] == [7, 9]
        assert store.forget([code]) == 1
    finally:
        store.close()


def test_a_restart_under_a_connection_in_use_loses_and_doubles_nothing(
        restarted: PostgresServer) -> None:
    """Restarted between two appends: the next append reconnects and is stored once."""
    store = open_store(restarted.url)
    try:
        code = store.create("table")
        for seq in range(3):
            store.append(code, seq, {"type": "move", "n": seq})
        restarted.halt()
        restarted.start()
        assert store.append(code, 3, {"type": "move", "n": 3}) == 4
        assert [e.data["n"] for e in store.events(code)] == [0, 1, 2, 3]
        assert store.sessions("table")[-1].code == code
    finally:
        store.close()


def test_a_live_feed_waits_through_a_restart_and_misses_nothing(
        restarted: PostgresServer) -> None:
    """A page's feed during a restart: the outage is noticed, and afterwards every event
    (two stored as soon as the database is back) is delivered once, in order."""
    teacher, student = Classroom(open_store(restarted.url)), open_store(restarted.url)
    code, token = teacher.open_class(seed=1)
    opened = teacher.load_class(code).seq  # the class's own first events
    delivered: list[int] = []
    outages: list[bool] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def run_feed() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)

        def on_events(events: list[Event]) -> None:
            delivered.extend(e.seq for e in events)

        feed = LiveFeed(student, code, opened, on_events, timeout=0.5, retry=0.2).start()
        try:
            while not done.is_set():
                outages.append(feed.outage)
                loop.run_until_complete(asyncio.sleep(0.05))
        except BaseException as error:  # pragma: no cover - reported below
            failure.append(error)
        finally:
            feed.stop()
            loop.run_until_complete(asyncio.sleep(0.05))
            loop.close()

    thread = threading.Thread(target=run_feed)
    thread.start()
    try:
        state = teacher.call(code, token)
        _wait_for(lambda: len(delivered) == 1)
        restarted.halt()
        _wait_for(lambda: any(outages))
        restarted.start()
        state = teacher.call(code, token, state=teacher.load_class(code))
        state = teacher.call(code, token, state=state)
        _wait_for(lambda: len(delivered) >= 3)
    finally:
        done.set()
        thread.join()
        teacher.store.close()
        student.close()
    assert not failure
    assert delivered == [opened + 1, opened + 2, opened + 3]
    assert state.seq == opened + 3 and len(state.calls) == 3


def _wait_for(condition: object, timeout: float = 60) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("not reached within a minute")
        time.sleep(0.05)


@pytest.mark.parametrize("stored_first", [True, False])
def test_an_append_whose_answer_is_lost_is_stored_once(restarted: PostgresServer,
                                                       stored_first: bool) -> None:
    """The connection dies during an append (the database restarting): after it ran
    (``stored_first``, the answer lost on the way back) or before. Either way the append
    reconnects, finds out, and the event is in the log exactly once."""
    import psycopg

    store = open_store(restarted.url)
    assert isinstance(store, PostgresStore)
    try:
        code = store.create("class")
        store.append(code, 0, {"type": "call", "card": 3})
        connection = store._db
        real_execute = connection.execute

        def dying_execute(query: str, params: object = None) -> object:
            if "INSERT INTO mathgames_events" in query:
                if stored_first:
                    real_execute(query, params)  # runs and commits (autocommit)
                connection.close()  # a real dead connection, as after a restart
                raise psycopg.OperationalError("server closed the connection unexpectedly")
            return real_execute(query, params)

        connection.execute = dying_execute  # type: ignore[method-assign]
        assert store.append(code, 1, {"type": "call", "card": 5}) == 2
        assert store._db is not connection  # a new connection
        assert [e.data["card"] for e in store.events(code)] == [3, 5]
        # and the next append goes on as usual
        assert store.append(code, 2, {"type": "call", "card": 8}) == 3
    finally:
        store.close()


def test_a_move_the_database_could_not_keep_never_shows(restarted: PostgresServer) -> None:
    """The database stops after the table was read and before the move is appended: the
    player is told "try again", their page's table is as it was (no move that nobody else
    will ever see), and the same move is played once the database is back."""

    class StopsAfterReading(Classroom):
        def refresh(self, state):  # type: ignore[no-untyped-def]
            state = super().refresh(state)
            restarted.halt()  # the crash lands between the read and the append
            return state

    store = open_store(restarted.url)
    try:
        room = Classroom(store)
        code = room.open_table("star", 2)
        pid, token, seat = room.join_table(code, "Ann")
        state = room.start_table(code, pid, token)
        assert state.to_move == seat and state.ply == 0
        move = str(state.game.legal_moves()[0])
        with pytest.raises(StoreUnavailable, match="try again"):
            StopsAfterReading(store).move(code, pid, token, move, state=state)
        assert state.ply == 0 and state.moves == [] and state.to_move == seat
        restarted.start()
        assert room.load_table(code).ply == 0  # nothing was kept
        state = room.move(code, pid, token, move, state=state)
        assert state.moves == [move] and room.load_table(code).moves == [move]
    finally:
        store.close()
