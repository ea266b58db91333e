"""The shared store: every class and table is an append-only log of events.

Kernels never talk to each other: each one reads and appends to one store.
A *session* (a class or a table) has a short code, a kind and settings; its
events are numbered 1, 2, 3, ... and :meth:`Store.append` takes the number the
writer expects to follow (``expected_seq``, the last it has seen): when another
writer took that place first, the append is refused with :class:`StoreConflict`
and the writer re-reads, re-validates and tries again. Nothing is lost and
every reader sees the same order.

Two backends share the interface and the schema:

- :class:`SqliteStore`, the default: one file in the server's data folder, in
  WAL mode with a busy timeout, one transaction per append; waiters poll.
- :class:`PostgresStore`: a PostgreSQL database (psycopg 3); an append sends
  ``NOTIFY`` and waiters ``LISTEN``, so they wake at once.

:func:`open_store` picks one from a URL or the ``MATHGAMES_STORE`` setting.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> store = SqliteStore(pathlib.Path(folder.name) / "class.sqlite3")
>>> code = store.create("class", {"game": "matematiko"})
>>> store.append(code, 0, {"type": "call", "card": 7})
1
>>> store.append(code, 0, {"type": "call", "card": 9})
Traceback (most recent call last):
...
mathgames.classroom.store.StoreConflict: event 1 of session ... is taken: read again and retry
>>> [e.data["card"] for e in store.events(code)]
[7]
>>> store.close()
>>> folder.cleanup()
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathgames.core.errors import MathgamesError, quoted, shorten
from mathgames.core.i18n import in_quotes, translator
from mathgames.core.places import data_folder

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "Event",
    "PostgresStore",
    "SessionInfo",
    "SqliteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreUnavailable",
    "UnknownSessionError",
    "default_sqlite_path",
    "new_code",
    "normalize_code",
    "open_store",
]

_ = translator("classroom")

#: Letters and digits of codes: no 0/O, 1/I/L, 5/S, 2/Z, 8/B to mix up on a projector.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 5
#: The longest event accepted (JSON characters): a move or a name is far shorter.
MAX_EVENT_CHARS = 4000
_NOTIFY_CHANNEL = "mathgames_events"


class StoreError(MathgamesError):
    """The store refused an operation (a bad code, an oversized event...)."""


class UnknownSessionError(StoreError, KeyError):
    """No class or table has this code."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown session"


class StoreConflict(StoreError):
    """Another writer appended first: read the new events, check again, retry."""


class StoreUnavailable(StoreError):
    """The database does not answer (it is restarting, or the network is down).

    Said to the user in the page's language, asking them to try again; the action was
    not stored (an append whose answer was lost is checked after reconnecting, so an
    event is never stored twice and never reported stored when it was not).

    >>> str(StoreUnavailable())
    "The class's database is not answering: try again in a moment"
    """

    def __init__(self, detail: str = "") -> None:
        super().__init__(_("The class's database is not answering: try again in a moment"))
        self.detail = detail


@dataclass(frozen=True)
class Event:
    """One event of a session's log: its number, its data and when it was stored."""

    seq: int
    data: dict[str, Any]
    created: float = 0.0


@dataclass(frozen=True)
class SessionInfo:
    """A session's code, kind (``"class"`` or ``"table"``) and settings."""

    code: str
    kind: str
    settings: dict[str, Any] = field(default_factory=dict)
    created: float = 0.0


def new_code() -> str:
    """A fresh random session code.

    >>> len(new_code()) == CODE_LENGTH and set(new_code()) <= set(CODE_ALPHABET)
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: object) -> str:
    """The canonical form of a typed code: upper case, no spaces or dashes.

    >>> normalize_code(" k3-9ty ")
    'K39TY'
    >>> normalize_code("AB")
    Traceback (most recent call last):
    ...
    mathgames.classroom.store.StoreError: A class code has 5 letters and digits, and “AB” has 2: ...
    >>> normalize_code("abcde")
    Traceback (most recent call last):
    ...
    mathgames.classroom.store.StoreError: Class codes never use B (nor 0, 1, 2, 5, 8, I, L, O, ...
    """
    if not isinstance(text, str):
        raise StoreError("a code is a text")
    clean = "".join(ch for ch in text.upper() if ch not in " -_\t")
    # typed by a student: said in the page's language, quoted short
    if not clean:
        raise StoreError(_("Type the class code from the board"))
    if len(clean) != CODE_LENGTH:
        raise StoreError(_("A class code has {n} letters and digits, and {text} has {k}: "
                           "check the code on the board").format(
            text=in_quotes(shorten(text.strip())), n=CODE_LENGTH, k=len(clean)))
    if not set(clean) <= set(CODE_ALPHABET):
        wrong = sorted(set(clean) - set(CODE_ALPHABET))
        raise StoreError(_("Class codes never use {letters} (nor {lookalikes}, which look "
                           "alike): check the code {text} on the board").format(
            letters=", ".join(wrong), text=in_quotes(shorten(text.strip())),
            lookalikes=", ".join(ch for ch in "01258BILOSZ" if ch not in wrong)))
    return clean


def _wanted(events: list[Event], kinds: frozenset[str] | None) -> bool:
    return kinds is None or any(e.data.get("type") in kinds for e in events)


def _dump(data: Mapping[str, Any]) -> str:
    if not isinstance(data, Mapping):
        raise StoreError("an event is a dict")
    text = json.dumps(dict(data), separators=(",", ":"), sort_keys=True)
    if len(text) > MAX_EVENT_CHARS:
        raise StoreError(f"an event of {len(text)} characters is too long")
    return text


class Store(ABC):
    """The store interface: sessions with append-only, numbered event logs.

    A writer names the number it read last; if another wrote first, it is refused and
    reads again (optimistic concurrency), so two students never overwrite each other:

    >>> import os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> store = SqliteStore(os.path.join(folder.name, "x.sqlite3"))
    >>> code = store.create("table", {"game": "halma"})
    >>> store.append(code, 0, {"type": "join", "name": "Ann"})
    1
    >>> store.append(code, 0, {"type": "join", "name": "Ben"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathgames.classroom.store.StoreConflict: event 1 of session ... is taken: read again and retry
    >>> [(event.seq, event.data["name"]) for event in store.events(code)], store.last_seq(code)
    ([(1, 'Ann')], 1)
    >>> store.close(); folder.cleanup()
    """

    #: how a kernel learns of new events: "poll" or "notify"
    wakeup = "poll"

    @abstractmethod
    def _insert_session(self, code: str, kind: str, settings: str, created: float) -> bool:
        """Insert a session; False when the code is taken."""

    @abstractmethod
    def session(self, code: str) -> SessionInfo:
        """The session with this code (raises :class:`UnknownSessionError`)."""

    @abstractmethod
    def sessions(self, kind: str | None = None, since: float | None = None
                 ) -> list[SessionInfo]:
        """Every session (of one kind; created at ``since`` or later), oldest first.

        A store that has served a school for a year holds many thousands of tables:
        ``since`` reads only the recent ones (an index on kind and time finds them)."""

    @abstractmethod
    def append(self, code: str, expected_seq: int, event: Mapping[str, Any]) -> int:
        """Append ``event`` as number ``expected_seq + 1`` and return that number.

        Raises :class:`StoreConflict` when the log already has more than
        ``expected_seq`` events, :class:`UnknownSessionError` for an unknown code.
        """

    @abstractmethod
    def events(self, code: str, after_seq: int = 0) -> list[Event]:
        """The events numbered above ``after_seq``, in order."""

    @abstractmethod
    def wait(self, code: str, after_seq: int, timeout: float,
             kinds: frozenset[str] | None = None) -> list[Event]:
        """The events above ``after_seq``, waiting up to ``timeout`` s for one to come.

        With ``kinds``, wait until one of the new events has a ``type`` in ``kinds``
        (all the new events are returned): a student's page need not wake for
        every classmate's placement. Raises :class:`UnknownSessionError` when the
        session is not (or no longer) in the store, at the latest after ``timeout``.
        """

    @abstractmethod
    def forget(self, codes: Collection[str]) -> int:
        """Delete these sessions and their events for good; return how many there were.

        One transaction: an append racing with it either lands before (and is deleted
        too) or is refused with :class:`UnknownSessionError`; a page waiting on a
        forgotten session learns it from :meth:`wait`. Unknown codes are skipped."""

    @abstractmethod
    def _idle_codes(self, before: float) -> list[str]:
        """The codes of the sessions with nothing done since ``before`` (see
        :func:`_idle_query`)."""

    def forget_idle(self, before: float) -> int:
        """Forget every class and table with nothing done since ``before`` (seconds since
        the epoch: created before it, and its last event too): a school keeps its
        students' names no longer than it chose, and a class still in use stays."""
        codes = self._idle_codes(before)
        return self.forget(codes) if codes else 0

    def close(self) -> None:  # noqa: B027 - optional for backends without resources
        """Release connections."""

    def create(self, kind: str, settings: Mapping[str, Any] | None = None) -> str:
        """Create a session and return its fresh code."""
        if kind not in ("class", "table"):
            raise StoreError(f"unknown session kind {quoted(kind)}")
        text = _dump(settings or {})
        for _attempt in range(50):
            code = new_code()
            if self._insert_session(code, kind, text, time.time()):
                return code
        raise StoreError("no free code found")  # pragma: no cover - 25**5 codes

    def last_seq(self, code: str) -> int:
        """The number of the last event (0 for none)."""
        found = self.events(code)
        return found[-1].seq if found else 0

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sessions_query(table: str, mark: str, kind: str | None, since: float | None
                    ) -> tuple[str, list[Any]]:
    """The query for :meth:`Store.sessions` in either backend's SQL (``mark``: its
    placeholder), with only the conditions asked for, so the index on kind and time serves.

    >>> _sessions_query("sessions", "?", "table", 5.0)
    ('SELECT code, kind, settings, created FROM sessions WHERE kind = ? AND created >= ? ORDER BY created, code', ['table', 5.0])
    """  # noqa: E501
    conditions, values = [], []
    if kind is not None:
        conditions.append(f"kind = {mark}")
        values.append(kind)
    if since is not None:
        conditions.append(f"created >= {mark}")
        values.append(float(since))
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    return (f"SELECT code, kind, settings, created FROM {table}{where} "
            "ORDER BY created, code", values)


def _idle_query(sessions: str, events: str, mark: str) -> str:
    """The query for :meth:`Store._idle_codes` (parameters: the time, twice): sessions
    created before it, found by the index on kind and time, whose last event (one step
    down the primary key) is older too.

    >>> "ORDER BY e.seq DESC LIMIT 1" in _idle_query("sessions", "events", "?")
    True
    """
    return (f"SELECT s.code FROM {sessions} s WHERE s.kind IN ('class', 'table') "
            f"AND s.created < {mark} AND coalesce((SELECT e.created FROM {events} e "
            f"WHERE e.code = s.code ORDER BY e.seq DESC LIMIT 1), 0) < {mark}")


# -- SQLite ------------------------------------------------------------------------------------

_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    code TEXT PRIMARY KEY, kind TEXT NOT NULL, settings TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL REFERENCES sessions(code), seq INTEGER NOT NULL,
    data TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (code, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_by_kind ON sessions (kind, created);
"""


def default_sqlite_path() -> Path:
    """Where the default store lives: the app's data folder
    (:func:`mathgames.core.places.data_folder`, each system's own place)."""
    return data_folder() / "classroom.sqlite3"


class SqliteStore(Store):
    """The embedded store: one SQLite file, safe for many kernels writing at once.

    WAL mode lets readers go on while one writer appends; ``busy_timeout``
    makes a writer wait for another instead of failing; every append is one
    ``BEGIN IMMEDIATE`` transaction that checks the last number and inserts.
    """

    wakeup = "poll"

    def __init__(self, path: str | Path | None = None, poll_interval: float = 0.1) -> None:
        self.path = Path(path) if path is not None else default_sqlite_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.poll_interval = poll_interval
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA busy_timeout = 30000")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute("PRAGMA foreign_keys = ON")
        with self._lock:
            self._db.executescript(_SQLITE_SCHEMA)

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _insert_session(self, code: str, kind: str, settings: str, created: float) -> bool:
        with self._lock:
            try:
                self._db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)",
                                 (code, kind, settings, created))
            except sqlite3.IntegrityError:
                return False
            return True

    def session(self, code: str) -> SessionInfo:
        with self._lock:
            row = self._db.execute("SELECT code, kind, settings, created FROM sessions "
                                   "WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise UnknownSessionError(f"no class or table has the code {quoted(code)}")
        return SessionInfo(row[0], row[1], json.loads(row[2]), row[3])

    def sessions(self, kind: str | None = None, since: float | None = None
                 ) -> list[SessionInfo]:
        query, values = _sessions_query("sessions", "?", kind, since)
        with self._lock:
            rows = self._db.execute(query, values).fetchall()
        return [SessionInfo(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    def append(self, code: str, expected_seq: int, event: Mapping[str, Any]) -> int:
        text = _dump(event)
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("SELECT 1 FROM sessions WHERE code = ?", (code,)).fetchone() is None:
                    raise UnknownSessionError(f"no class or table has the code {quoted(code)}")
                (last,) = db.execute("SELECT coalesce(max(seq), 0) FROM events WHERE code = ?",
                                     (code,)).fetchone()
                if last != expected_seq:
                    raise StoreConflict(f"event {expected_seq + 1} of session {code} is taken: "
                                        "read again and retry")
                db.execute("INSERT INTO events VALUES (?, ?, ?, ?)",
                           (code, expected_seq + 1, text, time.time()))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return expected_seq + 1

    def events(self, code: str, after_seq: int = 0) -> list[Event]:
        with self._lock:
            rows = self._db.execute("SELECT seq, data, created FROM events WHERE code = ? "
                                    "AND seq > ? ORDER BY seq", (code, after_seq)).fetchall()
        return [Event(r[0], json.loads(r[1]), r[2]) for r in rows]

    def _idle_codes(self, before: float) -> list[str]:
        with self._lock:
            rows = self._db.execute(_idle_query("sessions", "events", "?"),
                                    (before, before)).fetchall()
        return [row[0] for row in rows]

    def forget(self, codes: Collection[str]) -> int:
        rows = [(code,) for code in codes]
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("DELETE FROM events WHERE code = ?", rows)
                before = db.total_changes
                db.executemany("DELETE FROM sessions WHERE code = ?", rows)
                gone = db.total_changes - before
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return gone

    def wait(self, code: str, after_seq: int, timeout: float,
             kinds: frozenset[str] | None = None) -> list[Event]:
        deadline = time.monotonic() + timeout
        while True:
            found = self.events(code, after_seq)
            if found and _wanted(found, kinds):
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                self.session(code)  # raises when the session was forgotten meanwhile
                return []
            time.sleep(min(self.poll_interval, left))


# -- PostgreSQL --------------------------------------------------------------------------------

_PG_SCHEMA = """
CREATE TABLE IF NOT EXISTS mathgames_sessions (
    code text PRIMARY KEY, kind text NOT NULL, settings text NOT NULL,
    created double precision NOT NULL);
CREATE TABLE IF NOT EXISTS mathgames_events (
    code text NOT NULL REFERENCES mathgames_sessions(code), seq integer NOT NULL,
    data text NOT NULL, created double precision NOT NULL, PRIMARY KEY (code, seq));
CREATE INDEX IF NOT EXISTS mathgames_sessions_by_kind ON mathgames_sessions (kind, created);
"""


# One statement, one round trip: insert number ``expected + 1`` only if the log ends at
# ``expected`` (two racing writers meet the primary key), and notify in the same transaction.
_PG_APPEND = """
WITH added AS (
    INSERT INTO mathgames_events (code, seq, data, created)
    SELECT %(code)s, %(seq)s, %(data)s, %(created)s
    WHERE (SELECT coalesce(max(seq), 0) FROM mathgames_events WHERE code = %(code)s)
          = %(expected)s
    RETURNING seq)
SELECT seq, pg_notify(%(channel)s, %(payload)s) FROM added
"""


class _AnswerLost(Exception):
    """The connection dropped after a statement was sent: it may or may not have run."""


class PostgresStore(Store):
    """The store for several servers: one PostgreSQL database (psycopg 3).

    An append inserts number ``expected_seq + 1`` after checking the last
    number; two writers racing for the same number meet the primary key, and
    the loser gets :class:`StoreConflict`. The same transaction sends
    ``NOTIFY`` with the session's code, which wakes every :meth:`wait`.

    A database that restarts (an update, a failover) costs no event: every statement
    on a lost connection reconnects and runs again, except an append, whose answer may
    have been lost after it was stored: the store reads back its number and sends it
    again only when it is not there. While the database is down, every operation
    raises :class:`StoreUnavailable` at once (the page says "try again") and a
    :meth:`wait` in progress ends with it (:class:`~mathgames.pages.live.LiveFeed`
    waits a second and listens again, reading whatever came meanwhile).
    """

    wakeup = "notify"

    def __init__(self, url: str) -> None:
        import psycopg  # only needed when a school points the setting at PostgreSQL

        self._psycopg = psycopg
        self.url = url
        self._lock = threading.RLock()
        # one LISTEN connection per wait in progress, each getting every notification,
        # so waiters in one kernel (several pages' feeds) never wait for each other;
        # a finished wait leaves its connection for the next (as many as ever waited at once)
        self._listeners: list[Any] = []
        self._idle: list[Any] = []
        # Autocommit: every read and every append is one statement, one round trip.
        self._db = self._connect()
        try:
            with self._lock, self._db.transaction():
                # Many kernels may start at once: one creates the tables, the others wait.
                self._db.execute("SELECT pg_advisory_xact_lock(727272)")
                self._db.execute(_PG_SCHEMA)
        except psycopg.OperationalError as error:
            raise StoreUnavailable(str(error)) from None

    def __repr__(self) -> str:
        return "PostgresStore(...)"

    def close(self) -> None:
        with self._lock:
            self._db.close()
            listeners, self._listeners, self._idle = self._listeners, [], []
        for listener in listeners:
            listener.close()

    # -- connections -----------------------------------------------------------------------
    def _connect(self) -> Any:
        """A new autocommit connection, or :class:`StoreUnavailable` when none can be made."""
        try:
            return self._psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        except self._psycopg.OperationalError as error:
            raise StoreUnavailable(str(error)) from None

    @staticmethod
    def _lost(connection: Any) -> bool:
        return bool(connection.closed or connection.broken)

    def _run(self, query: str, params: Any = None, resend: bool = True) -> Any:
        """Execute one statement on the main connection and return its cursor.

        A connection lost before or during the statement (the database restarted) is
        replaced; the statement runs again on the new one when ``resend`` (reads, and
        writes that are safe to repeat), else :class:`_AnswerLost` says that it may have
        run. Raises :class:`StoreUnavailable` while the database does not answer.
        """
        operational = self._psycopg.OperationalError
        with self._lock:
            if self._lost(self._db):
                self._db = self._connect()
            try:
                return self._db.execute(query, params)
            except operational as error:
                if not self._lost(self._db):
                    raise StoreUnavailable(str(error)) from None
            self._db = self._connect()
            if not resend:
                raise _AnswerLost
            try:
                return self._db.execute(query, params)
            except operational as error:
                raise StoreUnavailable(str(error)) from None

    # -- the store ---------------------------------------------------------------------------
    def _insert_session(self, code: str, kind: str, settings: str, created: float) -> bool:
        errors = self._psycopg.errors
        try:
            # sent again after a lost answer: a code found taken then is taken by this very
            # insert, and the next code is tried (an empty session is forgotten as idle)
            self._run("INSERT INTO mathgames_sessions VALUES (%s, %s, %s, %s)",
                      (code, kind, settings, created))
        except errors.UniqueViolation:
            return False
        return True

    def session(self, code: str) -> SessionInfo:
        row = self._run("SELECT code, kind, settings, created FROM mathgames_sessions "
                        "WHERE code = %s", (code,)).fetchone()
        if row is None:
            raise UnknownSessionError(f"no class or table has the code {quoted(code)}")
        return SessionInfo(row[0], row[1], json.loads(row[2]), row[3])

    def sessions(self, kind: str | None = None, since: float | None = None
                 ) -> list[SessionInfo]:
        query, values = _sessions_query("mathgames_sessions", "%s", kind, since)
        rows = self._run(query, values).fetchall()
        return [SessionInfo(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    def append(self, code: str, expected_seq: int, event: Mapping[str, Any]) -> int:
        text = _dump(event)
        errors = self._psycopg.errors
        params = {"code": code, "seq": expected_seq + 1, "data": text, "created": time.time(),
                  "expected": expected_seq, "channel": _NOTIFY_CHANNEL,
                  "payload": f"{code} {str(event.get('type', ''))[:20]}"}
        row = None
        with self._lock:
            for attempt in range(2):
                try:
                    row = self._run(_PG_APPEND, params, resend=False).fetchone()
                except _AnswerLost:
                    # stored before the connection dropped? Then it is there, word for word
                    # (a writer racing for the number with the very same event is the same
                    # action twice, stored once); else send it again, once
                    kept = self._run("SELECT data FROM mathgames_events WHERE code = %s "
                                     "AND seq = %s", (code, expected_seq + 1)).fetchone()
                    if kept is not None and kept[0] == text:
                        return expected_seq + 1
                    if kept is None and attempt == 0:
                        continue
                    row = None
                except errors.UniqueViolation:
                    row = None
                except errors.ForeignKeyViolation:
                    raise UnknownSessionError(
                        f"no class or table has the code {quoted(code)}") from None
                break
        if row is None:
            self.session(code)  # a forgotten session is said so (raises), not a conflict
            raise StoreConflict(f"event {expected_seq + 1} of session {code} is taken: "
                                "read again and retry")
        return expected_seq + 1

    def events(self, code: str, after_seq: int = 0) -> list[Event]:
        rows = self._run(
            "SELECT seq, data, created FROM mathgames_events WHERE code = %s AND seq > %s "
            "ORDER BY seq", (code, after_seq)).fetchall()
        return [Event(r[0], json.loads(r[1]), r[2]) for r in rows]

    def _idle_codes(self, before: float) -> list[str]:
        rows = self._run(_idle_query("mathgames_sessions", "mathgames_events", "%s"),
                         (before, before)).fetchall()
        return [row[0] for row in rows]

    def forget(self, codes: Collection[str]) -> int:
        codes = list(codes)
        with self._lock:
            self._run("SELECT 1")  # a connection lost since the last statement is replaced
            try:
                with self._db.transaction():
                    # the sessions' rows locked first: an append waits for this transaction,
                    # then finds its session gone (a foreign key violation, said as unknown)
                    self._db.execute("SELECT code FROM mathgames_sessions "
                                     "WHERE code = ANY(%s) FOR UPDATE", (codes,))
                    self._db.execute("DELETE FROM mathgames_events WHERE code = ANY(%s)",
                                     (codes,))
                    gone = self._db.execute("DELETE FROM mathgames_sessions "
                                            "WHERE code = ANY(%s)", (codes,)).rowcount
            except self._psycopg.OperationalError as error:
                # a transaction cut short is rolled back by the server: nothing was deleted
                raise StoreUnavailable(str(error)) from None
        return gone

    def _listen(self) -> Any:
        """An idle LISTEN connection, or a new one when every one is in use."""
        with self._lock:
            while self._idle:
                listener = self._idle.pop()
                if not self._lost(listener):
                    return listener
                self._listeners.remove(listener)  # lost (the server went away): forget it
        listener = self._connect()
        try:
            listener.execute(f"LISTEN {_NOTIFY_CHANNEL}")
        except self._psycopg.OperationalError as error:
            listener.close()
            raise StoreUnavailable(str(error)) from None
        with self._lock:
            self._listeners.append(listener)
        return listener

    def wait(self, code: str, after_seq: int, timeout: float,
             kinds: frozenset[str] | None = None) -> list[Event]:
        deadline = time.monotonic() + timeout
        listener = self._listen()  # listening before the first read: no event slips by
        try:
            found = self.events(code, after_seq)
            while not (found and _wanted(found, kinds)):
                left = deadline - time.monotonic()
                if left <= 0:
                    self.session(code)  # raises when the session was forgotten meanwhile
                    return []
                try:
                    notes = list(listener.notifies(timeout=left, stop_after=1))
                except self._psycopg.OperationalError as error:
                    # the database went away: the caller listens again on a new
                    # connection and reads what came meanwhile, so nothing is missed
                    raise StoreUnavailable(str(error)) from None
                for note in notes:
                    session, _, kind = note.payload.partition(" ")
                    if session == code and (kinds is None or kind in kinds):
                        found = self.events(code, after_seq)
            return found
        finally:
            with self._lock:
                if self._lost(listener):
                    self._listeners.remove(listener)
                    listener.close()
                else:
                    self._idle.append(listener)


def open_store(url: str | None = None) -> Store:
    """The store a setting names: ``postgresql://...``, ``sqlite:///path`` or a file path.

    Without a URL, ``$MATHGAMES_STORE`` decides; without that, the default SQLite
    file in the server's data folder (:func:`default_sqlite_path`) is used.

    >>> import tempfile, os
    >>> folder = tempfile.TemporaryDirectory()
    >>> store = open_store("sqlite:///" + os.path.join(folder.name, "x.sqlite3"))
    >>> type(store).__name__, store.wakeup
    ('SqliteStore', 'poll')
    >>> store.close()
    >>> folder.cleanup()
    """
    url = url if url is not None else os.environ.get("MATHGAMES_STORE", "")
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///") - 1:] if url.startswith("sqlite:////")
                           else url[len("sqlite:///"):])
    if url.startswith("sqlite:"):
        raise StoreError(f"{url!r}: write sqlite:///relative/path or sqlite:////absolute/path")
    return SqliteStore(url or None)
