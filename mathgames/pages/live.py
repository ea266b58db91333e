"""What the class pages share on the Jupyter side: the store, live updates, addresses, QR codes.

A kernel learns of other kernels' events with :class:`LiveFeed`, a task on the
kernel's own asyncio event loop (the loop that also handles the browser's
messages, so widget updates need no locks). The blocking :meth:`Store.wait`
runs in a worker thread: with SQLite it polls every 0.1 s, with PostgreSQL it
sleeps until a ``NOTIFY`` arrives. New events are handed to the page's callback
on the event loop.

>>> qr_svg("http://192.168.1.5:8866/voila/render/join.ipynb").startswith("<svg")
True
>>> join_address("http://127.0.0.1:8866/voila/render/teacher.ipynb?lang=en", "K3M9T",
...               lan_host="10.0.0.7")
'http://10.0.0.7:8866/voila/render/join.ipynb?code=K3M9T'
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from mathgames.classroom.service import Classroom
from mathgames.classroom.session import NotAllowedError
from mathgames.classroom.store import (
    Event,
    Store,
    StoreUnavailable,
    UnknownSessionError,
    open_store,
)
from mathgames.core.svg import esc
from mathgames.pages import address as address_module
from mathgames.pages.address import qr_svg

__all__ = [
    "LiveFeed",
    "address_breaks",
    "classroom",
    "join_address",
    "message_html",
    "qr_svg",
    "query_value",
    "read_pass",
]

log = logging.getLogger("mathgames.classroom")

_ROOM: Classroom | None = None


def message_html(text: str, role: str | None = "alert") -> str:
    """A class page's message as HTML: a refusal or a warning (``role="alert"``, read out
    at once by a screen reader), news (``"status"``, read when the reader is idle), or
    (``None``) a paragraph with no role, for news the page says to the reader itself.
    A message is a sentence: it starts with a capital, whatever the error said.

    >>> message_html("There is no class K3M9T: check the code")
    '<p role="alert">There is no class K3M9T: check the code</p>'
    >>> message_html("<b>", role="status"), message_html("a new game", role=None)
    ('<p role="status">&lt;b&gt;</p>', '<p>A new game</p>')
    """
    text = text[:1].upper() + text[1:]
    return f'<p role="{role}">{esc(text)}</p>' if role else f"<p>{esc(text)}</p>"


def read_pass(kept: object, refusal: str) -> dict[str, str]:
    """The fields of a pass a browser kept (its ``code``, and ``pid`` and ``token`` or only
    ``token``), or :class:`NotAllowedError` with ``refusal`` (a sentence in the page's
    language that says what to do) when the kept text is damaged: never a parser's words.

    >>> read_pass('{"code": "K3M9T", "token": "t"}', "Join again")["code"]
    'K3M9T'
    >>> for kept in ("not JSON", "[1, 2, 3]", '{"code": 7}', None):
    ...     try:
    ...         read_pass(kept, "Join again")
    ...     except NotAllowedError as error:
    ...         print(error)
    Join again
    Join again
    Join again
    Join again
    """
    try:
        data = json.loads(kept)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        data = None
    if (not isinstance(data, dict) or not isinstance(data.get("code"), str)
            or not all(isinstance(data.get(key, ""), str) for key in ("pid", "token"))):
        raise NotAllowedError(refusal)
    return data


def classroom() -> Classroom:
    """The kernel's one :class:`Classroom` over the configured store (opened on first use)."""
    global _ROOM
    if _ROOM is None:
        _ROOM = Classroom(open_store())
    return _ROOM


def query_value(name: str) -> str:
    """A value of the page's query string (Voila hands it to the kernel), or ``""``.

    >>> kept = os.environ.get("QUERY_STRING")
    >>> os.environ["QUERY_STRING"] = "lang=en&code=K3M9T"
    >>> query_value("code"), query_value("table")
    ('K3M9T', '')
    >>> if kept is None: del os.environ["QUERY_STRING"]
    ... else: os.environ["QUERY_STRING"] = kept
    """
    values = parse_qs(os.environ.get("QUERY_STRING", "")).get(name, [])
    return values[0][:40] if values else ""


def join_address(page_url: str, code: str, page: str = "join.ipynb",
                 lan_host: str | None = None) -> str:
    """The address students type: the join page of this server, carrying the code.

    ``page_url`` is the teacher's page address (Voila's ``VOILA_REQUEST_URL``);
    ``$MATHGAMES_PUBLIC_URL`` (the app's address as students reach it) wins
    when set. A loopback host is replaced by this machine's network address. The address
    carries no language: each student's page follows their device's (Accept-Language)
    unless they choose another.
    """
    public = os.environ.get("MATHGAMES_PUBLIC_URL", "").rstrip("/")
    query = f"code={code}"
    if public:
        return f"{public}/voila/render/{page}?{query}"
    parts = urlsplit(page_url or "http://localhost:8866/voila/render/teacher.ipynb")
    host, port = parts.hostname or "localhost", parts.port
    if host in ("localhost", "127.0.0.1", "::1"):
        host = lan_host or address_module.lan_address() or host
    netloc = f"{host}:{port}" if port else host
    path = parts.path.rsplit("/", 1)[0] + "/" + page
    return urlunsplit((parts.scheme or "http", netloc, path, query, ""))


def address_breaks(url: str) -> str:
    """``url`` as HTML that a narrow box breaks only after a '/', '?' or '&' (a ``<wbr>``
    there; the box itself must not break words: ``word-break: keep-all``), never inside a
    word of the address (the "//" after the scheme stays whole).

    >>> address_breaks("http://10.0.0.7:8866/join.ipynb?code=K3M9T&x=1")
    'http://<wbr>10.0.0.7:8866/<wbr>join.ipynb?<wbr>code=K3M9T&amp;<wbr>x=1'
    """
    parts = []
    for i, ch in enumerate(url):
        parts.append(esc(ch))
        if ch in "/?&" and url[i + 1:i + 2] not in ("", "/"):
            parts.append("<wbr>")
    return "".join(parts)


class LiveFeed:
    """Calls ``on_events(events)`` on the kernel's event loop when a session's log grows.

    ``after_seq`` is the last event the page has; the feed remembers the last
    it delivered. With ``kinds`` it wakes only when an event of one of those types
    comes (and then delivers every new event). When the session leaves the store (the
    teacher deleted the class, or it stood idle longer than the store keeps one) the
    feed ends and calls ``on_gone()``, within ``timeout`` s. :meth:`stop` ends it (a
    closed page's kernel is culled anyway).

    A database that restarts does not end the feed: it tries again every
    ``retry`` s (logging the outage once, and its end) and then delivers every event
    stored meanwhile, since it reads from the last one it delivered.
    """

    def __init__(self, store: Store, code: str, after_seq: int,
                 on_events: Callable[[list[Event]], Any], timeout: float = 2.0,
                 kinds: frozenset[str] | None = None,
                 on_gone: Callable[[], Any] | None = None, retry: float = 1.0) -> None:
        self.store, self.code, self.seq = store, code, after_seq
        self.retry = retry
        self.outage = False  # the store did not answer the last time the feed asked
        self.kinds = kinds
        self.on_events = on_events
        self.on_gone = on_gone
        self.timeout = timeout
        self.running = False
        self._task: asyncio.Task[None] | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mathgames-live")

    def start(self) -> LiveFeed:
        """Start watching (on the running or current event loop)."""
        if not self.running:
            self.running = True
            loop = asyncio.get_event_loop()
            self._task = loop.create_task(self._run())
        return self

    def stop(self) -> None:
        self.running = False
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.running:
            try:
                events = await loop.run_in_executor(self._pool, self.store.wait, self.code,
                                                    self.seq, self.timeout, self.kinds)
            except asyncio.CancelledError:
                raise
            except UnknownSessionError:  # deleted: nothing more will come
                self.running = False
                if self.on_gone is not None:
                    self.on_gone()
                return
            except StoreUnavailable as error:  # the database restarts: wait, try again
                if not self.outage:
                    log.warning("live feed of %s: the store does not answer (%s); "
                                "trying again every %g s", self.code, error.detail, self.retry)
                self.outage = True
                await asyncio.sleep(self.retry)
                continue
            except Exception:  # anything else: log, wait, try again
                log.exception("live feed of %s failed; retrying", self.code)
                await asyncio.sleep(self.retry)
                continue
            if self.outage:
                self.outage = False
                log.warning("live feed of %s: the store answers again", self.code)
            if not events or not self.running:
                continue
            self.seq = events[-1].seq
            try:
                self.on_events(events)
            except Exception:  # a page's bug must not end the feed
                log.exception("live feed of %s: the page failed on new events", self.code)
