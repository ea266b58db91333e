"""A school's server on loopback, for the tests and the bench: several app servers over one
PostgreSQL, behind HAProxy (``deploy/haproxy.cfg``, as a school runs it), and class pages
driven at the protocol level through the proxy.

- :class:`School`: a throwaway PostgreSQL (``pgserver.py``), N app servers (the
  ``make app`` command, as ``tests/conftest.py`` starts one) with ``MATHGAMES_STORE``
  pointing at it and the proxy trusted (``MATHGAMES_TRUSTED_PROXY=127.0.0.1``), and
  Debian's ``haproxy`` started with the repository's configuration, whose addresses come
  from the environment. Any part may be killed and started again.
- :class:`LivePage`: one browser tab without the browser: the page fetched through the
  proxy (its cookies kept, the sticky ``SERVERID`` among them), its kernel's websocket
  open, every widget's state kept current from the kernel's messages, and the actions a
  browser sends (a button's click, a text typed, a cell tapped, the copy kept in local
  storage offered after a reload).
- :class:`ClassGame`: a teacher and students on such pages playing a whole Matematiko
  class game, with what each student placed where, so that the CSV can be checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import html
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from pgserver import PostgresServer  # noqa: E402
from tornado.httpclient import HTTPRequest  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

from mathgames.matematiko.match import cell_name  # noqa: E402
from tests.conftest import NOTEBOOKS, Server, free_port  # noqa: E402
from tests.page_client import (  # noqa: E402
    V1_PROTOCOL,
    PageVisit,
    message,
    request_states,
    visit,
)

#: The proxy's configuration that the school installs (its addresses from the environment).
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
#: How long a page may take to load or a change to reach it on a busy shared machine.
PATIENCE = 180.0


def haproxy_path() -> str | None:
    """Debian's haproxy (``.ci/ensure-haproxy`` installs it), if installed."""
    return shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists()
                                        else None)


def haproxy_env(bind: str, servers: list[str]) -> dict[str, str]:
    """The environment that fills ``deploy/haproxy.cfg``'s addresses (two app servers)."""
    return {"MATHGAMES_BIND": bind, "MATHGAMES_APP1": servers[0], "MATHGAMES_APP2": servers[1]}


class School:
    """PostgreSQL, ``count`` app servers and the proxy in front, all on loopback."""

    def __init__(self, count: int = 2, logs: Path | None = None) -> None:
        if haproxy_path() is None:
            raise RuntimeError("HAProxy is not installed: apt-get install haproxy")
        self.folder = Path(tempfile.mkdtemp(prefix="mathgames-school-"))
        self.logs = logs or self.folder
        self.served = self.folder / "notebooks"
        shutil.copytree(NOTEBOOKS, self.served)
        self.pg = PostgresServer()
        self.apps: list[Server | None] = [None] * count
        self.ports = [free_port() for _ in range(count)]
        self.proxy: subprocess.Popen[bytes] | None = None
        try:
            for index in range(count):
                self.start_app(index)
            self.proxy_port = free_port()
            self.start_proxy()
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        """The one address of the school: the proxy."""
        return f"http://127.0.0.1:{self.proxy_port}"

    def start_app(self, index: int) -> None:
        """Start app server ``index`` (again) on its port, over the shared store."""
        # as a school runs them: the proxy's X-Forwarded-For names each student's address
        server = Server(self.served, self.logs / f"school-app{index + 1}.log",
                        port=self.ports[index], env={"MATHGAMES_STORE": self.pg.url,
                                                     "MATHGAMES_TRUSTED_PROXY": "127.0.0.1"})
        self.apps[index] = server
        server.wait_ready()

    def kill_app(self, index: int) -> None:
        """Kill app server ``index`` outright (a crash, a pulled plug): it, its kernel
        template and its pages' kernels, with no chance to tidy up."""
        server = self.apps[index]
        assert server is not None
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait()
        server.stop()  # closes its log

    def start_proxy(self) -> None:
        env = dict(os.environ, **haproxy_env(
            f"127.0.0.1:{self.proxy_port}", [f"127.0.0.1:{port}" for port in self.ports]))
        self._proxy_log = (self.logs / "school-haproxy.log").open("w")
        self.proxy = subprocess.Popen([haproxy_path() or "haproxy", "-db", "-f", str(HAPROXY_CFG)],
                                      env=env, stdout=self._proxy_log, stderr=subprocess.STDOUT,
                                      start_new_session=True)
        deadline = time.monotonic() + 60
        import http.client

        while time.monotonic() < deadline:
            if self.proxy.poll() is not None:
                raise RuntimeError("haproxy exited: "
                                   + (self.logs / "school-haproxy.log").read_text()[-2000:])
            connection = http.client.HTTPConnection("127.0.0.1", self.proxy_port, timeout=5)
            try:
                connection.request("GET", "/")
                if connection.getresponse().status == 302:
                    return
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            time.sleep(0.2)
        raise RuntimeError("haproxy did not answer within a minute")

    def stop_proxy(self) -> None:
        if self.proxy is not None and self.proxy.poll() is None:
            os.killpg(self.proxy.pid, signal.SIGTERM)
            self.proxy.wait(timeout=30)
            self._proxy_log.close()

    def stop(self) -> None:
        self.stop_proxy()
        for server in self.apps:
            if server is not None:
                server.stop()
        self.pg.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _attribute(text: str | None, name: str) -> str | None:
    found = re.search(rf'{name}="([^"]*)"', text or "")
    return html.unescape(found.group(1)) if found else None


class LivePage:
    """A page open through the proxy, at the protocol level (see the module's docstring).

    ``states`` maps each widget's model id to its state, kept current by a reader task;
    ``closed`` says the kernel's websocket has closed (its server went away).
    """

    def __init__(self, page: PageVisit) -> None:
        self.page = page
        # request_states answers {model id: {"model_name": ..., "state": {...}}}
        self.states: dict[str, dict[str, Any]] = {
            model: dict(entry.get("state", {})) for model, entry in page.states.items()}
        self.closed = False
        self.changed = asyncio.Event()
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, base: str, path: str, cookies: dict[str, str] | None = None
                   ) -> LivePage:
        """Open the page (``cookies``: the browser's, the proxy's sticky one among them)."""
        page = await visit(base, path, keep_open=True, cookies=cookies, timeout=PATIENCE)
        if page.error or page.status != 200:
            raise RuntimeError(f"{path}: {page.status} {page.error}")
        return cls(page)

    @property
    def server(self) -> str:
        """The app server the proxy sent this page to (its sticky cookie)."""
        return self.page.cookies.get("SERVERID", "")

    async def _read(self) -> None:
        while True:
            try:
                msg = await self.page.receive(3600)
            except (asyncio.TimeoutError, OSError):
                msg = None
            if msg is None:
                self.closed = True
                self.changed.set()
                return
            content = msg.get("content", {})
            kind = msg.get("msg_type")
            if kind == "comm_open":
                self.states[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
            elif kind == "comm_msg" and content.get("data", {}).get("method") in (
                    "update", "echo_update"):
                self.states.setdefault(content["comm_id"], {}).update(
                    content["data"].get("state", {}))
            elif kind == "comm_msg" and content.get("data", {}).get("method") == "update_states":
                for model, entry in content["data"].get("states", {}).items():
                    self.states[model] = dict(entry.get("state", {}))
            elif kind == "comm_msg" and content.get("data", {}).get("method") == "custom":
                sent = content["data"].get("content")
                if isinstance(sent, dict) and sent.get("type") == "echo":
                    # what the form's Enter widget does in the browser (enter.js): the
                    # kernel acts on a click once its echo comes back
                    await self._send(content["comm_id"], {
                        "method": "custom", "content": {"type": "echo", "id": sent.get("id")}})
                continue
            elif kind == "comm_close":
                self.states.pop(content.get("comm_id"), None)
            else:
                continue
            self.changed.set()

    def find(self, css_class: str = "", **traits: str) -> str | None:
        """The model id of the widget with this CSS class (and these trait values), if any."""
        for model, state in self.states.items():
            if css_class and css_class not in state.get("_dom_classes", ()):
                continue
            if all(state.get(name) == value for name, value in traits.items()):
                return model
        return None

    def widget(self, css_class: str = "", **traits: str) -> str:
        """The model id of the widget with this CSS class (and these trait values)."""
        found = self.find(css_class, **traits)
        if found is None:
            raise LookupError(f"no widget {css_class!r} {traits} on {self.page.path}")
        return found

    def value(self, css_class: str = "", trait: str = "value", **traits: str) -> Any:
        """A trait of that widget (its ``value`` by default); None while there is none."""
        model = self.find(css_class, **traits)
        return None if model is None else self.states[model].get(trait)

    async def _send(self, model: str, data: dict[str, Any]) -> None:
        await self.page.send(message("comm_msg", "shell", {"comm_id": model, "data": data},
                                     session=self.page.session))

    async def click(self, css_class: str) -> None:
        """Press the button with this CSS class."""
        await self._send(self.widget(css_class),
                         {"method": "custom", "content": {"event": "click"}})

    async def type_text(self, model: str, text: str) -> None:
        await self._send(model, {"method": "update", "state": {"value": text},
                                 "buffer_paths": []})

    async def board_message(self, storage_key: str, content: dict[str, Any]) -> None:
        """What the board's JavaScript sends: a tapped cell, or the kept copy."""
        await self._send(self.widget(storage_key=storage_key),
                         {"method": "custom", "content": content})

    async def until(self, check: Callable[[], Any], what: str,
                    timeout: float | None = None) -> Any:
        """Wait until ``check()`` gives something true (and return it)."""
        timeout = PATIENCE if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            found = check()
            if found:
                return found
            if self.closed:
                raise ConnectionError(f"{self.page.path}: the kernel's websocket closed "
                                      f"while waiting for {what}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.page.path}: {what} did not come within "
                                     f"{timeout:.0f} s")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def reconnect(self) -> None:
        """Open the kernel's websocket again, as the page does by itself when its
        connection dropped (the kernel still runs), and ask for every widget's state."""
        page = self.page
        self._reader.cancel()
        url = (page.base_url.replace("http", "ws", 1)
               + f"/api/kernels/{page.kernel_id}/channels?session_id={page.session}")
        page.ws = await websocket_connect(
            HTTPRequest(url, headers={"Cookie": page.cookie_header()},
                        connect_timeout=PATIENCE, request_timeout=PATIENCE),
            subprotocols=[V1_PROTOCOL])
        self.closed = False
        self._reader = asyncio.ensure_future(self._read())
        await request_states(page)

    async def close(self) -> None:
        self._reader.cancel()
        await self.page.close(beacon=not self.closed)


class Teacher:
    """The teacher's page (``teacher.ipynb``) through the proxy."""

    KEY = "classroom-teacher"

    def __init__(self, page: LivePage) -> None:
        self.page, self.code, self.kept = page, "", ""

    async def open_class(self) -> str:
        await self.page.until(lambda: self.page.find("mg-open-class"), "the Open button")
        await self.page.click("mg-open-class")
        top = await self.page.until(
            lambda: _attribute(self.page.value("mg-class-top-widget"), "data-code"),
            "the class code")
        self.code = top
        self.kept = self.page.value(trait="storage_value", storage_key=self.KEY)
        return self.code

    async def press_call(self) -> float:
        """Press "Call the next number" as a person would: once it is no longer greyed out
        (after each call it rests a second, so that a double-click calls one number). The
        moment it was pressed (``time.monotonic()``)."""
        await self.page.until(
            lambda: self.page.value("mg-call-button", trait="disabled") is False,
            "the call button, ready again")
        pressed = time.monotonic()
        await self.page.click("mg-call-button")
        return pressed

    def progress(self) -> tuple[int, int]:
        """(numbers called, students still thinking), as the teacher's page shows them."""
        text = self.page.value("mg-call-progress") or ""
        called, waiting = _attribute(text, "data-called"), _attribute(text, "data-waiting")
        return int(called or 0), int(waiting or 0)

    def students(self) -> list[str]:
        return re.findall(r'<li data-state="(\w+)"', self.page.value("mg-students") or "")

    def called_now(self) -> int:
        found = re.search(r'mg-called-now[^>]*>(\d+)<',
                          self.page.value("mg-call-progress") or "")
        assert found is not None
        return int(found.group(1))

    def message(self) -> str:
        return html.unescape(re.sub("<[^>]+>", "", self.page.value("mg-teacher-message") or ""))

    def csv_rows(self) -> list[dict[str, str]]:
        link = _attribute(self.page.value("mg-csv") or "", "href") or ""
        text = unquote(link.partition(",")[2])
        return list(csv.DictReader(io.StringIO(text)))

    async def reload(self, base: str) -> None:
        """Reload the page (the browser keeps its cookies and local storage)."""
        cookies = self.page.page.cookies
        await self.page.close()
        self.page = await LivePage.open(base, "teacher.ipynb?lang=en", cookies)
        await self.page.until(lambda: self.page.find(storage_key=self.KEY), "the keeper")
        await self.page.board_message(self.KEY, {"type": "stored", "key": self.KEY,
                                                 "data": self.kept})
        await self.page.until(lambda: _attribute(self.page.value("mg-class-top-widget") or "",
                                                 "data-code") == self.code, "the class again")


class Student:
    """A student's page (``join.ipynb``) through the proxy, and what they placed where."""

    KEY = "classroom-class"

    def __init__(self, page: LivePage, name: str, offset: int) -> None:
        self.page, self.name, self.offset = page, name, offset
        self.kept = ""
        self.cells: list[int] = []  # the cell of each number placed, in order

    async def join(self, code: str) -> None:
        await self.page.until(lambda: self.page.find("mg-join-button"), "the join form")
        name_box = self.page.widget(description="First name")
        await self.page.type_text(name_box, self.name)
        await self.page.click("mg-join-button")
        await self.page.until(self.status, "the student's line")
        self.kept = self.page.value(trait="storage_value", storage_key=self.KEY)
        assert json.loads(self.kept)["code"] == code

    def status(self) -> tuple[int, int] | None:
        """(placed, called) as the student's page shows it, once joined."""
        text = self.page.value("mg-join-status") or ""
        placed, called = _attribute(text, "data-placed"), _attribute(text, "data-called")
        return None if placed is None else (int(placed), int(called or 0))

    def message(self) -> str:
        return html.unescape(re.sub("<[^>]+>", "", self.page.value("mg-join-message") or ""))

    def next_cell(self) -> int:
        return (len(self.cells) + self.offset) % 25

    async def place(self) -> None:
        """Tap the next cell for the number to place."""
        await self.page.board_message(self.KEY, {"type": "click",
                                                 "cell": cell_name(self.next_cell())})

    async def reload(self, base: str) -> None:
        """Reload the page: the same cookies, the pass offered from local storage."""
        cookies = self.page.page.cookies
        await self.page.close()
        self.page = await LivePage.open(base, "join.ipynb?lang=en", cookies)
        await self.page.until(lambda: self.page.find(storage_key=self.KEY), "the grid")
        await self.page.board_message(self.KEY, {"type": "stored", "key": self.KEY,
                                                 "data": self.kept})
        await self.page.until(self.status, "the grid back from the store")


async def open_teacher(base: str) -> Teacher:
    teacher = Teacher(await LivePage.open(base, "teacher.ipynb?lang=en"))
    await teacher.open_class()
    return teacher


async def open_student(base: str, code: str, name: str, offset: int) -> Student:
    student = Student(await LivePage.open(base, f"join.ipynb?lang=en&code={code}"), name,
                      offset)
    await student.join(code)
    return student


def csv_column(cell: int) -> str:
    """The CSV's column of a grid cell (a1 ... e5, row by row)."""
    return f"{'abcde'[cell % 5]}{cell // 5 + 1}"


class ClassGame:
    """A whole class game through the proxy: the teacher's page, ``count`` students' pages,
    25 numbers called and placed; ``between(k)`` runs after the ``k``-th number is placed
    by everyone (to kill a server, restart the database...).

    ``latencies`` holds, for every call and student, the seconds from the teacher's press
    on "Call the next number" to the student's page showing the number (the kernel's
    message received: a browser's drawing not included); ``cards`` the numbers called.
    """

    def __init__(self, base: str, count: int) -> None:
        self.base, self.count = base, count
        self.teacher: Teacher | None = None
        self.students: list[Student] = []
        self.cards: list[int] = []
        self.latencies: list[float] = []

    async def open(self, batch: int = 8) -> None:
        """The teacher opens a class; the students join, ``batch`` pages at a time."""
        self.teacher = teacher = await open_teacher(self.base)
        names = student_names(self.count)
        for start in range(0, self.count, batch):
            self.students += await asyncio.gather(*(
                open_student(self.base, teacher.code, name, i)
                for i, name in enumerate(names[start:start + batch], start)))
        await teacher.page.until(lambda: len(teacher.students()) == self.count,
                                 "every student on the teacher's page")

    async def call_only(self) -> None:
        """Call the next number and wait until every student's page shows it."""
        teacher = self.teacher
        assert teacher is not None
        k = len(self.cards)
        await teacher.press_call()
        await teacher.page.until(lambda: teacher.progress()[0] == k + 1, f"call {k + 1}")
        self.cards.append(teacher.called_now())
        await asyncio.gather(*(student.page.until(
            lambda student=student: (student.status() or (0, 0))[1] == k + 1,
            f"call {k + 1} on {student.name}'s page") for student in self.students))

    async def call(self) -> None:
        """Call the next number and wait until every student has placed it."""
        teacher = self.teacher
        assert teacher is not None
        k = len(self.cards)
        pressed = await teacher.press_call()
        await teacher.page.until(lambda: teacher.progress()[0] == k + 1, f"call {k + 1}")
        self.cards.append(teacher.called_now())

        async def student_turn(student: Student) -> None:
            await student.page.until(lambda: (student.status() or (0, 0))[1] == k + 1,
                                     f"call {k + 1} on {student.name}'s page")
            self.latencies.append(time.monotonic() - pressed)
            await self.place(student, k)

        await asyncio.gather(*(student_turn(student) for student in self.students))
        await teacher.page.until(lambda: teacher.progress() == (k + 1, 0)
                                 and teacher.students() == ["placed"] * self.count,
                                 f"every placement of call {k + 1} on the teacher's page")

    async def place(self, student: Student, k: int) -> None:
        """The student taps a free cell for call ``k`` (0-based) and sees it placed."""
        await student.place()
        await student.page.until(lambda: (student.status() or (0, 0))[0] == k + 1,
                                 f"{student.name}'s placement {k + 1}")
        student.cells.append(student.next_cell())

    async def check_csv(self) -> None:
        """The teacher's CSV holds every student's grid exactly as they placed it."""
        teacher = self.teacher
        assert teacher is not None
        # the link is redrawn just after the progress line that said everyone placed
        await teacher.page.until(lambda: len(teacher.csv_rows()) == self.count and all(
            row["placed"] == "25" for row in teacher.csv_rows()), "the complete CSV")
        rows = {row["name"]: row for row in teacher.csv_rows()}
        assert sorted(rows) == sorted(s.name for s in self.students)
        for student in self.students:
            row = rows[student.name]
            grid = {csv_column(cell): str(card)
                    for cell, card in zip(student.cells, self.cards, strict=True)}
            assert {column: row[column] for column in grid} == grid, student.name

    async def close(self) -> None:
        pages = [s.page for s in self.students]
        if self.teacher is not None:
            pages.append(self.teacher.page)
        await asyncio.gather(*(page.close() for page in pages), return_exceptions=True)


def student_names(count: int) -> list[str]:
    """Distinct first names the class pages accept (letters only)."""
    return [f"Pupil {chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(count)]
