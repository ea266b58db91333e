"""Fixtures of the classroom tests: both store backends, PostgreSQL for real.

- ``pg_url`` (session): a throwaway PostgreSQL server started for the tests
  (``pgserver.py``), stopped at the end;
- ``store_url``: a fresh store of each backend (``sqlite:///...`` in a temporary
  folder, or a fresh database on the PostgreSQL server);
- ``store``: that store opened.
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pgserver import PostgresServer

import mathgames.pages.live as live
from mathgames.classroom.store import Store, open_store
from tests.kernel_loop import in_own_loop


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_url(pg_server: PostgresServer) -> str:
    return pg_server.url


def fresh_database(server_url: str) -> str:
    """A new empty database on the test server, and its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.replace("@/postgres?", f"@/{name}?")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    return fresh_database(request.getfixturevalue("pg_url"))


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def in_thread(store_url: str, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Run a test's body as a kernel runs a page: on an event loop of its own (see
    ``tests/kernel_loop.py``), on a fresh store of each backend."""
    monkeypatch.setenv("MATHGAMES_STORE", store_url)
    monkeypatch.setattr(live, "_ROOM", None)

    def close_store() -> None:
        if live._ROOM is not None:
            live._ROOM.store.close()

    def run(body: Callable[[asyncio.AbstractEventLoop], None]) -> None:
        in_own_loop(body, cleanup=close_store)

    return run
