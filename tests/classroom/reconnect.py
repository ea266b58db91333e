"""A live class whose network the test cuts: the shared part of the reconnect test and bench.

:class:`CutClass` starts the app's server (the ``make app`` command) on a SQLite store in a
folder of its own, a :class:`~tests.relay.Relay` in front of it, and in Chromium a
teacher's page and two students' pages (each in a browser context of its own) that reach
the server only through the relay. :meth:`CutClass.outage` cuts the network for a while,
:meth:`CutClass.restart` kills the server and starts it again on the same folder; both
wait, with nobody reloading a page, until every page is usable again, and say how long each
took. :meth:`CutClass.play_a_number` has the teacher call the next number and both students
place it. ``tests/classroom/test_reconnect_browser.py`` and ``bench/classroom_reconnect.py``
use it.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import time
from pathlib import Path
from typing import Any

from mathgames.matematiko.match import cell_name
from tests.conftest import NOTEBOOKS, Server, collect_errors, wait_rendered
from tests.page_client import PageVisit, message, visit
from tests.relay import Relay

__all__ = ["LOST", "RELOAD_SPREAD_S", "CutClass", "class_comes_back", "reconnect_all",
           "visits_at_once"]

#: A page whose kernel is gone reloads after a random wait of up to this (page.js: 1.5 s
#: times 0.5 to 1.5), once its probe, itself spread, finds the server again.
RELOAD_SPREAD_S = 2.25

#: The page helper's "connection lost" line (``mathgames/core/static/page.js``).
LOST = ".mg-connection-lost"
TIMEOUT_MS = 120_000


class CutClass:
    """A teacher and two students mid-game, over a relay the test can cut."""

    def __init__(self, browser: Any, folder: Path, log: Path, school: Any = None) -> None:
        self.browser, self.folder, self.log = browser, folder, log
        self.served = folder / "notebooks"
        self.store_url = f"sqlite:///{folder / 'classroom.sqlite3'}"
        self.server: Server | None = None
        self.relay: Relay | None = None
        self.port: int | None = None
        self.logs: list[Path] = []
        self.school = school  # a tests.classroom.school.School: its proxy, no relay
        if school is None:
            if not self.served.exists():
                shutil.copytree(NOTEBOOKS, self.served)
            self.start_server()
            assert self.server is not None
            self.relay = Relay(self.server.port)
        self.base = school.url if school is not None else self.relay.url
        self.contexts: list[Any] = []
        self.called = 0
        self.teacher = self._open("teacher.ipynb", "", ".mg-open-class")
        self.teacher.locator(".mg-open-class").click()
        self.teacher.wait_for_selector(".mg-class-code", state="visible")
        self.code = self.teacher.locator(".mg-class-code").get_attribute("data-code")
        self.students = []
        for name in ("Ann", "Ben"):
            page = self._open("join.ipynb", f"&code={self.code}", ".mg-join-button")
            page.locator(".mg-join-form input").nth(1).fill(name)
            page.locator(".mg-join-button").click()
            page.wait_for_selector(".mg-join-line", state="visible")
            self.students.append(page)
        self.teacher.wait_for_function(
            "() => document.querySelectorAll('.mg-students li').length === 2")

    @property
    def pages(self) -> list[Any]:
        return [self.teacher, *self.students]

    def start_server(self) -> None:
        """The app's server on the class's folder (on the port it had, after a restart)."""
        log = self.log.with_name(f"{self.log.stem}-{len(self.logs)}{self.log.suffix}")
        self.logs.append(log)
        self.server = Server(self.served, log, port=self.port,
                             env={"MATHGAMES_STORE": self.store_url})
        self.port = self.server.port
        self.server.wait_ready()

    def _open(self, notebook: str, query: str, wait_for: str) -> Any:
        context = self.browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = collect_errors(context.new_page())
        page.goto(f"{self.base}/voila/render/{notebook}?lang=en{query}",
                  wait_until="domcontentloaded")
        wait_rendered(page, wait_for)
        return page

    def mark_pages(self) -> None:
        """Mark every page's window: a page that reloads loses its mark."""
        for page in self.pages:
            page.evaluate("() => { window.mgMark = true; }")

    def reloaded(self) -> list[bool]:
        """Whether each page (teacher, students) reloaded since :meth:`mark_pages`."""
        return [not page.evaluate("() => window.mgMark === true") for page in self.pages]

    def wait_lost(self, pages: list[Any] | None = None) -> None:
        """Until every page (of ``pages``) shows the "connection lost" line, and its
        controls are inert."""
        for page in self.pages if pages is None else pages:
            page.wait_for_selector(LOST, state="visible", timeout=TIMEOUT_MS)
            assert page.evaluate("() => document.body.classList.contains('mg-offline')")

    def wait_usable(self, since: float) -> list[float]:
        """Until each page is usable again (its line gone, its class shown): the seconds
        from ``since`` for the teacher and each student."""
        seconds = []
        for page, ready in ((self.teacher, ".mg-call-button:not([disabled])"),
                            *((student, ".mg-join-line") for student in self.students)):
            page.wait_for_function(
                """([lost, ready]) => {
                    const line = document.querySelector(lost);
                    return (!line || line.hidden) && !document.body.classList.contains(
                        'mg-offline') && document.querySelector(ready) !== null;
                }""", arg=[LOST, ready], timeout=TIMEOUT_MS, polling=100)
            seconds.append(time.monotonic() - since)
        return seconds

    def outage(self, seconds: float) -> list[float]:
        """Cut the network for ``seconds``; the seconds from its return until each page
        (teacher, students) is usable."""
        assert self.relay is not None
        self.relay.cut()
        start = time.monotonic()
        self.wait_lost()
        time.sleep(max(0.0, seconds - (time.monotonic() - start)))
        self.relay.restore()
        return self.wait_usable(time.monotonic())

    def restart(self, down: float = 2.0) -> list[float]:
        """Kill the server (SIGKILL, as a crash), start it again on the same folder after
        ``down`` seconds; the seconds from its first answer until each page is usable."""
        assert self.server is not None
        os.killpg(self.server.process.pid, signal.SIGKILL)
        self.server.process.wait()
        self.server.stop()
        self.wait_lost()
        time.sleep(down)
        self.start_server()
        return self.wait_usable(time.monotonic())

    def server_of(self, page: Any) -> str:
        """The app server behind the school's proxy that holds ``page`` (its cookie)."""
        return next(cookie["value"] for cookie in page.context.cookies()
                    if cookie["name"] == "SERVERID")

    def kill_teachers_server(self) -> tuple[list[bool], list[float]]:
        """In a school: kill the app server that holds the teacher's page (a crash); which
        pages were on it, and the seconds from the kill until each page is usable (on the
        other server, for those)."""
        held = self.server_of(self.teacher)
        on_it = [self.server_of(page) == held for page in self.pages]
        self.school.kill_app(int(held.removeprefix("app")) - 1)
        start = time.monotonic()
        self.wait_lost([page for page, lost in zip(self.pages, on_it, strict=True) if lost])
        return on_it, self.wait_usable(start)

    def play_a_number(self) -> None:
        """The teacher calls the next number; both students see it and place it."""
        self.teacher.locator(".mg-call-button").click()
        self.called += 1
        k = self.called
        for i, page in enumerate(self.students):
            page.wait_for_selector(
                f'.mg-join-line[data-placed="{k - 1}"][data-called="{k}"]', timeout=TIMEOUT_MS)
            page.locator(f'.mathgames-board [data-cell="{cell_name((k * 7 + i) % 25)}"]').click()
            page.wait_for_selector(
                f'.mg-join-line[data-placed="{k}"][data-called="{k}"]', timeout=TIMEOUT_MS)
        self.teacher.wait_for_selector(
            f'.mg-call-progress p[data-called="{k}"][data-waiting="0"]', state="attached",
            timeout=TIMEOUT_MS)

    def server_logs(self) -> str:
        return "".join(log.read_text() for log in self.logs if log.exists())

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        if self.relay is not None:
            self.relay.close()
        if self.server is not None:
            self.server.stop()


async def visits_at_once(base: str, path: str, count: int,
                         spread: float = RELOAD_SPREAD_S) -> list[PageVisit]:
    """``count`` pages from one address (a school behind one NAT) within ``spread``
    seconds, as a class's pages reload by themselves; their websockets stay open."""
    async def one() -> PageVisit:
        await asyncio.sleep(random.uniform(0, spread))
        return await visit(base, path, keep_open=True)

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def reconnect_all(pages: list[PageVisit], timeout: float = 120) -> list[float | None]:
    """Open every page's websocket again (the same session, as a page's kernel connection
    reconnects), all at once; for each the seconds until its kernel answered, or ``None``."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    from mathgames.server.wire import V1_PROTOCOL

    async def one(page: PageVisit) -> float | None:
        start = time.monotonic()
        url = (page.base_url.replace("http", "ws", 1)
               + f"/api/kernels/{page.kernel_id}/channels?session_id={page.session}")
        try:
            page.ws = await websocket_connect(
                HTTPRequest(url, headers={"Cookie": page.cookie_header()},
                            connect_timeout=timeout, request_timeout=timeout),
                subprotocols=[V1_PROTOCOL] if page.v1 else None)
            await page.send(message("kernel_info_request", "shell", session=page.session))
            reply = await page.wait_for(lambda m: m.get("msg_type", m.get("header", {}).get(
                "msg_type")) == "kernel_info_reply", timeout)
        except (OSError, asyncio.TimeoutError, HTTPClientError) as error:
            page.error = f"{type(error).__name__}: {error}"
            return None
        return time.monotonic() - start if reply is not None else None

    return list(await asyncio.gather(*(one(page) for page in pages)))


def restarted(server: Server, log: Path, env: dict[str, str]) -> Server:
    """Kill ``server`` outright (SIGKILL) and start it again on its port, serving the app's
    notebooks with ``env``."""
    os.killpg(server.process.pid, signal.SIGKILL)
    server.process.wait()
    server.stop()
    again = Server(NOTEBOOKS, log, env=env, port=server.port)
    again.wait_ready()
    return again


async def class_comes_back(server: Server, students: int, log: Path, env: dict[str, str]
                           ) -> tuple[list[Any], list[Any], Server]:
    """``students`` join pages from one address (spread over 10 s); their websockets drop
    at once and, 3 s later, reconnect to their kernels at once; then the server is killed and
    started again (with ``log``) and the pages reload at once. The pages' visits before,
    the seconds each took to reconnect (``None``: not served), the reloaded visits and the
    restarted server."""
    pages = await visits_at_once(server.url, "join.ipynb", students, spread=10)
    for page in pages:  # the Wi-Fi drops: no beacon, the sockets just close
        if page.ws is not None:
            page.ws.close()
    await asyncio.sleep(3)
    answered = await reconnect_all(pages)
    for page in pages:
        await page.close(beacon=False)
    server = await asyncio.to_thread(restarted, server, log, env)
    again = await visits_at_once(server.url, "join.ipynb", students)
    await asyncio.gather(*(page.close() for page in again))
    return [*zip(pages, answered, strict=True)], again, server
