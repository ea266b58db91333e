"""Fixtures of the classroom tests: both store backends, PostgreSQL for real.

- ``pg_url`` (session): a throwaway PostgreSQL server started for the tests
  (``pgserver.py``), stopped at the end;
- ``store_url``: a fresh store of each backend (``sqlite:///...`` in a temporary
  folder, or a fresh database on the PostgreSQL server);
- ``store``: that store opened.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pgserver import PostgresServer

from mathgames.classroom.store import Store, open_store


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
