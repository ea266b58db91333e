"""Who gets a page: admission by memory, a flood from one address, a trusted proxy.

Every server here is started as a teacher starts it (``make app``), on loopback; other
devices are other loopback addresses (127.0.0.2, ...), bound as the client socket's
source address. Pages are opened at the protocol level
(:mod:`tests.page_client`): the page over HTTP, then its kernel's websocket
until the widgets' state arrives. A flood is page requests that never connect.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

from tests.app.test_security import PASSWORD, cookies_of, header_of, kernels, request
from tests.conftest import ARTIFACTS, NOTEBOOKS, Server, free_port
from tests.kernel_loop import in_own_loop as run
from tests.page_client import PageVisit, kernel_id_of, message, visit

pytestmark = pytest.mark.browser

#: How long the kernels of a flood may outlive it (README, "Serving a class"): 20 s after
#: each page was sent, a reaper's round, and the time to end the kernels.
FLOOD_GONE_S = 60
PAGE = "matematiko.ipynb"


def make_app(log: Path, env: dict[str, str] | None = None, **variables: str) -> Server:
    """`make app` with this environment's Python (the target's install stamp taken as done)."""
    port = free_port()
    prefix = Path(sys.prefix)
    command = ["make", "--no-print-directory", "-o", f"{prefix}/.installed-app", "app",
               f"VENV={prefix}", f"PORT={port}",
               *(f"{name}={value}" for name, value in variables.items())]
    server = Server(NOTEBOOKS, log, command=command, port=port, env=env)
    server.wait_ready()
    return server


def log_in(server: Server, password: str, headers: dict[str, str] | None = None,
           source: str = "127.0.0.1") -> tuple[int, dict[str, str]]:
    """Send the class password; the answer's status and the visitor's cookies."""
    _, first, _ = request(server, "GET", "/login?next=/", headers=headers, source=source)
    jar = cookies_of(first, {})
    status, answer, _ = request(server, "POST", "/login?next=/",
                            body=urlencode({"password": password, "_xsrf": jar["_xsrf"]}),
                            headers={**(headers or {}), "Cookie": header_of(jar),
                                     "Content-Type": "application/x-www-form-urlencoded"},
                            source=source)
    return status, cookies_of(answer, jar)


def wait_until(condition: object, bound: float) -> bool:
    """Poll ``condition()`` every second until it holds or ``bound`` seconds have passed."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(1)
    return bool(condition())  # type: ignore[operator]


async def awaited(condition: object, bound: float) -> bool:
    """:func:`wait_until` in a coroutine (while the event loop keeps pages connected)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        await asyncio.sleep(1)
    return bool(condition())  # type: ignore[operator]


async def answered(page: PageVisit) -> bool:
    """Whether the page's kernel still answers over its websocket."""
    await page.send(message("kernel_info_request", "shell", session=page.session))
    return await page.wait_for(lambda m: m.get("msg_type") == "kernel_info_reply",
                               timeout=60) is not None


def test_a_flood_from_one_address_does_not_lock_a_student_out() -> None:
    server = make_app(ARTIFACTS / "flood-server.log", MAX_KERNELS="6")
    try:
        answers: list[int] = []

        async def flood(stop: asyncio.Event) -> None:  # page requests that never connect
            while not stop.is_set() and len(answers) < 500:
                reply = await AsyncHTTPClient().fetch(HTTPRequest(
                    f"{server.url}/voila/render/{PAGE}", request_timeout=300,
                    network_interface="127.0.0.1"), raise_error=False)
                answers.append(reply.code)
                if reply.code != 200:
                    await asyncio.sleep(0.2)

        async def scenario() -> None:
            stop = asyncio.Event()
            flooders = [asyncio.ensure_future(flood(stop)) for _ in range(2)]
            while kernels(server) < 6 and not all(f.done() for f in flooders):
                await asyncio.sleep(0.5)
            # the flood fills the server; its pages are told from a class's loading pages
            # once they are 5 s old and still not connected: the student comes then
            await asyncio.sleep(6)
            student = await visit(server.url, PAGE, source="127.0.0.2", keep_open=True)
            stop.set()
            await asyncio.gather(*flooders)
            try:
                assert student.status == 200 and student.error == "", (student.status,
                                                                       student.error)
                assert student.widget_count > 0 and student.usable_seconds is not None
                # the flood's kernels end; the student's, connected, stays and answers
                gone = await awaited(lambda: kernels(server) == 1, FLOOD_GONE_S)
                assert gone, kernels(server)
                assert await answered(student)
            finally:
                await student.close()

        run(scenario())
        assert 503 in answers and answers.count(200) >= 6, answers  # the flood filled it
        assert "127.0.0.1 floods the server" in server.log.read_text()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def proxied() -> Iterator[Server]:
    """A class server behind a proxy on 127.0.0.1 (``make app ... TRUSTED_PROXY=``)."""
    server = make_app(ARTIFACTS / "proxied-server.log", CLASSROOM="1", PASSWORD=PASSWORD,
                      TRUSTED_PROXY="127.0.0.1")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def unproxied() -> Iterator[Server]:
    """A class server that names no proxy."""
    server = make_app(ARTIFACTS / "unproxied-server.log", CLASSROOM="1", PASSWORD=PASSWORD)
    try:
        yield server
    finally:
        server.stop()


def forwarded(address: str) -> dict[str, str]:
    # what a client may have written first, then the address the proxy saw
    return {"X-Forwarded-For": f"203.0.113.9, {address}"}


def flood_and_one(server: Server) -> list[str]:
    """Six pages for 10.0.0.1 and one for 10.0.0.2 through the proxy, none connected;
    the kernels of those pages."""
    status, jar = log_in(server, PASSWORD, forwarded("10.0.0.9"))
    assert status == 302, status
    cookie = {"Cookie": header_of(jar)}
    ids = []
    for address in ["10.0.0.1"] * 6 + ["10.0.0.2"]:
        status, _, html = request(server, "GET", f"/voila/render/{PAGE}",
                              headers={**cookie, **forwarded(address)})
        assert status == 200, status
        ids.append(kernel_id_of(html))
    return [kernel_id for kernel_id in ids if kernel_id]


def test_behind_a_trusted_proxy_the_rules_apply_per_student(proxied: Server) -> None:
    ids = flood_and_one(proxied)
    # 10.0.0.1 flooded: its pages end; 10.0.0.2's one page keeps its kernel (5 minutes)
    assert wait_until(lambda: kernels(proxied) == 1, FLOOD_GONE_S), kernels(proxied)
    log = proxied.log.read_text()
    assert "10.0.0.1 floods the server" in log and "10.0.0.2 floods" not in log
    status, jar = log_in(proxied, PASSWORD, forwarded("10.0.0.2"))

    async def student_2() -> bool:  # the kernel left is 10.0.0.2's: its page connects now
        page = PageVisit(proxied.url, PAGE, cookies=jar, kernel_id=ids[-1])
        page.ws = await websocket_connect(HTTPRequest(
            f"ws://127.0.0.1:{proxied.port}/api/kernels/{ids[-1]}/channels"
            f"?session_id={page.session}", headers={"Cookie": page.cookie_header()}))
        page.v1 = False
        try:
            return await answered(page)
        finally:
            await page.close(beacon=False)

    assert status == 302 and run(student_2())

    # the password's throttle: 10.0.0.3 guesses and waits; 10.0.0.4 is let in
    answers = [log_in(proxied, f"guess-{i}", forwarded("10.0.0.3"))[0] for i in range(6)]
    assert answers[:5] == [401] * 5 and answers[5] == 429, answers
    assert log_in(proxied, PASSWORD, forwarded("10.0.0.4"))[0] == 302
    assert log_in(proxied, PASSWORD, forwarded("10.0.0.3"))[0] == 429
    # a device that is not the proxy may write what it likes: its own address counts
    answers = [log_in(proxied, f"guess-{i}", forwarded(f"10.0.1.{i}"), source="127.0.0.3")[0]
               for i in range(6)]
    assert answers[-1] == 429, answers


def test_without_a_named_proxy_the_header_is_ignored(unproxied: Server) -> None:
    flood_and_one(unproxied)
    # all seven pages came from 127.0.0.1, whatever the header said: all end
    assert wait_until(lambda: kernels(unproxied) == 0, FLOOD_GONE_S), kernels(unproxied)
    assert "127.0.0.1 floods the server" in unproxied.log.read_text()
    answers = [log_in(unproxied, f"guess-{i}", forwarded("10.0.0.3"), source="127.0.0.5")[0]
               for i in range(6)]
    assert answers[-1] == 429, answers
    assert log_in(unproxied, PASSWORD, forwarded("10.0.0.4"), source="127.0.0.5")[0] == 429
    assert log_in(unproxied, PASSWORD, forwarded("10.0.0.4"), source="127.0.0.6")[0] == 302


def write_meminfo(path: Path, total_mib: int, available_mib: int) -> None:
    path.write_text(f"MemTotal: {total_mib * 1024} kB\nMemFree: 0 kB\n"
                    f"MemAvailable: {available_mib * 1024} kB\n")


def test_admission_follows_the_memory(tmp_path: Path) -> None:
    from mathgames.server.admission import memory_cap

    fake = tmp_path / "meminfo"
    total = 1024 + 3 * 64 + 10  # the system's reserve, and room for 3 pages
    assert memory_cap(total * 2**20) == 3
    write_meminfo(fake, total, total)
    server = make_app(ARTIFACTS / "admission-server.log", env={"MATHGAMES_MEMINFO": str(fake)})
    try:
        assert "at most 3 pages open at once" in server.log.read_text()

        async def scenario() -> tuple[list[PageVisit], PageVisit, PageVisit]:
            pages = [await visit(server.url, PAGE, keep_open=True, source=f"127.0.0.{i + 2}")
                     for i in range(3)]
            fourth = await visit(server.url, PAGE, source="127.0.0.5")
            await pages[0].close()
            deadline = time.monotonic() + 60  # a closed page's kernel ends at once
            again = await visit(server.url, PAGE, keep_open=True, source="127.0.0.5")
            while again.busy and time.monotonic() < deadline:
                await asyncio.sleep(1)
                again = await visit(server.url, PAGE, keep_open=True, source="127.0.0.5")
            for page in [*pages[1:], again]:
                await page.close()
            return pages, fourth, again

        pages, fourth, again = run(scenario())
        for page in pages:
            assert page.status == 200 and page.error == "" and page.widget_count > 0
        assert fourth.busy and "The class server is busy" in fourth.html
        assert again.status == 200 and again.error == "" and again.widget_count > 0
        assert wait_until(lambda: kernels(server) == 0, 60)

        # a page that would leave less than the guard (256 MiB) free is refused: no swap
        write_meminfo(fake, total, 256 + 63)
        status, _, body = request(server, "GET", f"/voila/render/{PAGE}")
        assert status == 503 and "busy" in body and kernels(server) == 0
        write_meminfo(fake, total, 256 + 64 + 10)
        assert request(server, "GET", f"/voila/render/{PAGE}")[0] == 200
    finally:
        server.stop()
