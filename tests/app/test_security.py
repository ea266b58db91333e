"""The app's server serves the app and nothing else: every other door is knocked on.

The server is started exactly as a teacher starts it, with ``make app`` (once as is,
on loopback, and once in classroom mode with a class password); the requests are
those an attacker on the network would send. Pages are opened at the protocol
level (:mod:`tests.page_client`): the page over HTTP, then its kernel's
websocket until the widgets' state arrives.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import sys
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psutil
import pytest

from mathgames.core.i18n import LANGUAGES
from tests.conftest import ARTIFACTS, NOTEBOOKS, Server, free_port
from tests.kernel_loop import in_own_loop as run
from tests.page_client import PageVisit, message, visit

pytestmark = pytest.mark.browser

PASSWORD = "tri-56-omino"
_XSRF = "2|00000000|" + "ab" * 16 + "|1700000000"
#: A matching _xsrf cookie and header, as any client may send.
FORGED_XSRF = {"Cookie": f"_xsrf={_XSRF}", "X-XSRFToken": _XSRF}


def make_app(log: Path, **variables: str) -> Server:
    """`make app` with this environment's Python (the target's install stamp taken as done)."""
    port = free_port()
    prefix = Path(sys.prefix)
    command = ["make", "--no-print-directory", "-o", f"{prefix}/.installed-app", "app",
               f"VENV={prefix}", f"PORT={port}",
               *(f"{name}={value}" for name, value in variables.items())]
    return Server(NOTEBOOKS, log, command=command, port=port)


def kernels(server: Server) -> int:
    """How many kernels the server runs now (its ipykernel child processes)."""
    found = 0
    for child in psutil.Process(server.process.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            found += any("ipykernel" in part for part in child.cmdline())
    return found


def request(server: Server, method: str, path: str, body: str | None = None,
            headers: dict[str, str] | None = None,
            source: str = "127.0.0.1") -> tuple[int, dict[str, str], str]:
    """One request from the loopback address ``source``: status, headers, body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300,
                                            source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, \
            reply.read().decode("utf-8", "replace")
    finally:
        connection.close()


def cookies_of(headers: dict[str, str], jar: dict[str, str]) -> dict[str, str]:
    cookie = SimpleCookie()
    cookie.load(headers.get("set-cookie", ""))
    jar.update({name: morsel.value for name, morsel in cookie.items()})
    return jar


def header_of(jar: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in jar.items())


@pytest.fixture(scope="module")
def app_server() -> Iterator[Server]:
    server = make_app(ARTIFACTS / "security-server.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def class_server() -> Iterator[Server]:
    server = make_app(ARTIFACTS / "security-classroom-server.log", CLASSROOM="1",
                      PASSWORD=PASSWORD)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


DOORS = [
    ("GET", "/lab"), ("GET", "/lab/tree/index.ipynb"), ("GET", "/tree"),
    ("GET", "/notebooks/index.ipynb"), ("GET", "/edit/index.ipynb"),
    ("GET", "/terminals/1"), ("GET", "/terminals/websocket/1"), ("POST", "/api/terminals"),
    ("GET", "/api/terminals"), ("GET", "/api/kernels"), ("POST", "/api/kernels"),
    ("GET", "/api/sessions"), ("POST", "/api/sessions"), ("GET", "/api/contents"),
    ("GET", "/api/contents/index.ipynb"), ("POST", "/api/contents/evil"),
    ("PUT", "/api/contents/evil.ipynb"), ("DELETE", "/api/contents/index.ipynb"),
    ("PATCH", "/api/contents/index.ipynb"), ("GET", "/files/index.ipynb"),
    ("GET", "/voila/files/index.ipynb"), ("GET", "/voila/tree"),
    ("GET", "/voila/api/contents"), ("GET", "/api/config/notebook"), ("GET", "/api/me"),
    ("GET", "/api/kernelspecs"), ("GET", "/api/status"), ("GET", "/view/index.ipynb"),
    ("GET", "/voila/render/../pyproject.toml"), ("GET", "/voila/files/../../pyproject.toml"),
]


def test_every_door_but_the_app_is_shut(app_server: Server) -> None:
    # An attacker sends a matching _xsrf cookie and header (both are his to choose), so
    # that a refusal is the server's and not only the xsrf check's.
    before = sorted(p.relative_to(NOTEBOOKS) for p in NOTEBOOKS.rglob("*"))
    status, headers, _ = request(app_server, "GET", "/")
    assert status == 302 and headers["location"].endswith("/voila/render/index.ipynb")
    for method, path in DOORS:
        status, headers, body = request(
            app_server, method, path,
            body=json.dumps({"type": "notebook"}) if method in ("POST", "PUT", "PATCH") else None,
            headers=FORGED_XSRF)
        if status == 302:  # Voila sends a file to its files handler: which must refuse it
            status, headers, body = request(app_server, "GET", headers["location"])
        assert status in (403, 404, 405), (method, path, status, body[:300])
    assert kernels(app_server) == 0  # no door started a kernel
    assert sorted(p.relative_to(NOTEBOOKS) for p in NOTEBOOKS.rglob("*")) == before


def test_a_page_kernel_refuses_code_from_the_browser(app_server: Server,
                                                     tmp_path: Path) -> None:
    async def scenario() -> tuple[PageVisit, Any, Any, int, int]:
        page = await visit(app_server.url, "board_demo.ipynb", keep_open=True)
        assert page.status == 200 and page.error == "", page.error
        assert page.widget_count > 0
        witness = tmp_path / "executed"
        await page.send(message("execute_request", "shell", {
            "code": f"open({str(witness)!r}, 'w').write('x')", "silent": False,
            "store_history": False, "user_expressions": {}, "allow_stdin": False},
            session=page.session))
        await page.send(message("kernel_info_request", "shell", session=page.session))
        info = await page.wait_for(lambda m: m.get("msg_type") == "kernel_info_reply",
                                   timeout=60)
        # Give a refused request time to show itself if it had run.
        late = await page.wait_for(lambda m: m.get("msg_type") in (
            "execute_reply", "execute_result", "stream", "error"), timeout=5)
        # Nor may the page end other pages' kernels through the kernels API.
        status, _, _ = request(app_server, "DELETE", f"/api/kernels/{page.kernel_id}",
                               headers=FORGED_XSRF)
        running = kernels(app_server)
        await page.close()
        return page, info, late, status, running

    _page, info, late, status, running = run(scenario())
    assert info is not None  # the socket works: the kernel answered what it may
    assert late is None
    assert not (tmp_path / "executed").exists()
    assert status == 405 and running == 1


def app_pages() -> list[str]:
    """Every notebook under notebooks/ (each is a page of the app, no configuration needed),
    with one of the lessons' language copies standing for the others (they are rendered
    in a browser by tests/lessons)."""
    found = sorted(str(path.relative_to(NOTEBOOKS)) for path in NOTEBOOKS.rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in path.parts)
    copies = {f"explore/{code}/" for code in LANGUAGES if code != "en"}
    return [path for path in found if path[:11] not in copies
            or path == "explore/pl/board_geometry.ipynb"]


def test_every_app_page_renders(app_server: Server) -> None:
    assert "index.ipynb" in app_pages() and "explore/pl/board_geometry.ipynb" in app_pages()

    async def scenario() -> list[PageVisit]:
        results = []
        for path in app_pages():
            page = await visit(app_server.url, path + "?lang=pl", keep_open=True)
            results.append(page)
            await page.close()
        return results

    for page in run(scenario()):
        assert page.status == 200 and page.error == "", (page.path, page.status, page.error)
        assert page.widget_count > 0, page.path
        assert "Traceback" not in page.html, page.path
        assert "Gry matematyczne" in json.dumps(page.states, ensure_ascii=False), page.path


def test_the_classroom_server_asks_for_the_password_first(class_server: Server) -> None:
    log = class_server.log.read_text()
    address = re.search(r"Students type: (http://[\d.]+:(\d+)/)", log)
    assert address and int(address.group(2)) == class_server.port, log[-2000:]
    for method, path in [("GET", "/voila/render/index.ipynb"),
                         ("GET", "/voila/render/halma.ipynb?lang=cs"),
                         ("GET", "/voila/files/index.ipynb")]:
        status, headers, _ = request(class_server, method, path)
        assert status in (302, 403), (path, status)
        if status == 302:
            assert "/login?next=" in headers["location"]
    status, _, _ = request(class_server, "GET", "/api/kernels/0b6e9f5c-1d1e-4f6a-9a57-0c9f0f5d7e11")
    assert status == 403
    for method, path in DOORS:
        assert request(class_server, method, path)[0] in (302, 403, 404, 405), path
    assert kernels(class_server) == 0

    # The login page speaks the visitor's language; a wrong password is refused.
    status, headers, body = request(class_server, "GET", "/login?next=/voila/render/index.ipynb",
                                    headers={"Accept-Language": "pl-PL,pl;q=0.9"})
    assert status == 200 and "Hasło klasy" in body
    jar = cookies_of(headers, {})
    form = {"password": "not-it", "_xsrf": jar["_xsrf"]}
    status, _, body = request(class_server, "POST", "/login?next=/voila/render/index.ipynb",
                              body=urlencode(form), headers={
                                  "Cookie": header_of(jar),
                                  "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 401 and "Wrong password" in body
    form["password"] = PASSWORD
    status, headers, _ = request(class_server, "POST", "/login?next=/voila/render/index.ipynb",
                                 body=urlencode(form), headers={
                                     "Cookie": header_of(jar),
                                     "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302 and headers["location"] == "/voila/render/index.ipynb"
    cookies_of(headers, jar)

    async def landing() -> PageVisit:
        page = await visit(class_server.url, "index.ipynb", cookies=jar, keep_open=True)
        await page.close()
        return page

    page = run(landing())
    assert page.status == 200 and page.error == "", page.error
    shown = json.dumps(page.states)
    assert "mg-class-address" in shown and "<svg" in shown
    assert address.group(1).split("://")[1].rstrip("/") in shown


def test_guessing_the_class_password_is_slowed_down(class_server: Server) -> None:
    # The last test on this server: it leaves loopback throttled for a minute.
    status, headers, _ = request(class_server, "GET", "/login?next=/voila/render/index.ipynb")
    jar = cookies_of(headers, {})

    def attempt(password: str) -> tuple[int, dict[str, str], str]:
        return request(class_server, "POST", "/login?next=/voila/render/index.ipynb",
                       body=urlencode({"password": password, "_xsrf": jar["_xsrf"]}),
                       headers={"Cookie": header_of(jar), "Accept-Language": "cs",
                                "Content-Type": "application/x-www-form-urlencoded"})

    answers = [attempt(f"guess-{i}")[0] for i in range(6)]
    # Five wrong passwords a minute (one may have come from the test before), then a pause.
    assert answers[:4] == [401] * 4 and answers[-1] == 429, answers
    status, headers, body = attempt(PASSWORD)  # even the right one waits its minute
    assert status == 429 and int(headers["retry-after"]) > 0
    assert "počkejte minutu" in body  # in the visitor's language
    assert not any(name.startswith("username") for name in cookies_of(headers, {}))  # no login


def test_logout_and_the_template_folder_are_no_errors(app_server: Server) -> None:
    status, headers, _ = request(app_server, "GET", "/logout")
    assert status == 302 and headers["location"] == "/"  # signed out, back to the landing page
    for path in ("/voila/templates/", "/voila/templates/lab", "/voila/templates/lab/static/"):
        assert request(app_server, "GET", path)[0] == 404, path


def test_a_prefetch_starts_no_kernel(app_server: Server) -> None:
    status, headers, _ = request(app_server, "GET", "/voila/render/halma.ipynb",
                                 headers={"Sec-Purpose": "prefetch"})
    assert status == 503 and headers["cache-control"] == "no-store"
    assert kernels(app_server) == 0
