"""Shared fixtures: a real Voila server and a real headless Chromium.

- ``voila_url`` (session): the address of the app's server (the same command as
  ``make app``) serving ``notebooks/`` on a free loopback port; stopped at the end.
- ``lab_url`` (session): JupyterLab for developers (``make lab``), with its token.
- ``browser`` (session): headless Chromium from ``/usr/bin/chromium`` (or the path
  in ``MATHGAMES_CHROMIUM``), driven by Playwright. Playwright never downloads a
  browser here.
- ``page``: a fresh browser page; console errors are collected in ``page.mg_errors``;
  a failing test leaves a screenshot in ``test-artifacts/``.
- ``notebook_page(name, lang="en", wait_for=".mathgames-board")``: opens a notebook
  of the app in ``page`` and waits until it is rendered.
"""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PAGE_TIMEOUT_MS = 90_000


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """Every test leaves the kernel language English, as it found it: a test that switches to
    Polish and fails (or forgets) must not turn later tests and doctests into Polish."""
    from mathgames.core.i18n import set_language

    yield
    set_language("en")



#: Each test process's own ports: a block of this many, below the system's ephemeral range.
PORTS_PER_PROCESS = 500
FIRST_OWN_PORT = 20_000


def ephemeral_ports() -> tuple[int, int]:
    """The range the system draws ports from for ``bind(0)`` and outgoing connections."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32_768, 60_999  # Linux's default; macOS draws from 49152-65535


def own_ports(worker: str | None = None, start: int | None = None) -> Iterator[int]:
    """This test process's ports, each given once: its own block below the ephemeral range.

    A port drawn by ``bind(0)`` was free when drawn, but the kernels that other test
    workers start at the same moment draw theirs from the same range, and one took a test
    server's port before the server could listen (CI, 6 December 2026: "port ... is
    already in use"). Here each xdist worker has its own block, outside that range, starting
    at a random place in it (so that two sessions on one machine rarely meet), and never
    gives a port twice. None at all when the range leaves no room below it.

    >>> ports = own_ports("gw1", start=7)
    >>> next(ports), next(ports)
    (21007, 21008)
    >>> first, second = set(own_ports("gw0")), set(own_ports("gw1"))
    >>> len(first) == PORTS_PER_PROCESS and not first & second
    True
    >>> max(first | second) < ephemeral_ports()[0]
    True
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "") if worker is None else worker
    index = int(worker[2:]) + 1 if worker[:2] == "gw" and worker[2:].isdigit() else 0
    low = ephemeral_ports()[0]
    blocks = (low - FIRST_OWN_PORT) // PORTS_PER_PROCESS
    if blocks < 1:
        return
    first = FIRST_OWN_PORT + (index % blocks) * PORTS_PER_PROCESS
    offset = secrets.randbelow(PORTS_PER_PROCESS) if start is None else start
    for step in range(PORTS_PER_PROCESS):
        yield first + (offset + step) % PORTS_PER_PROCESS


_OWN_PORTS = own_ports()


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now, and that no other test process
    of this session is given (see :func:`own_ports`); ``bind(0)``'s when the block is spent."""
    for port in _OWN_PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def chromium_path() -> str:
    """The system Chromium, or a clear failure that says how to install it."""
    path = os.environ.get("MATHGAMES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            f"Chromium not found at {path}: install it (apt-get install chromium) or set "
            "MATHGAMES_CHROMIUM to a Chromium binary. Browser tests never download one."
        )
    return path


class Server:
    """A running app server (the ``make app`` command) on a loopback port.

    ``command`` replaces the app's server command (the Binder test runs Binder's own
    server); ``ready_path`` is a cheap address that answers once the server is up.
    """

    def __init__(self, root: Path, log: Path, python: str | None = None,
                 command: list[str] | None = None, ready_path: str = "/",
                 env: dict[str, str] | None = None, port: int | None = None,
                 **options: Any) -> None:
        from mathgames.server.serve import server_command

        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.ready_path = ready_path
        log.parent.mkdir(parents=True, exist_ok=True)
        full_env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
        full_env.pop("QUERY_STRING", None)
        if "MATHGAMES_PASSWORD" not in (env or {}):
            full_env.pop("MATHGAMES_PASSWORD", None)
        self._log_file = log.open("w")
        if command is None:
            command = server_command(root, self.port, **options)
            if python:  # another environment's server
                command[0] = python
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=full_env, stdout=self._log_file,
            stderr=subprocess.STDOUT, start_new_session=True,
        )

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early; see {self.log}:\n"
                                   + self.log.read_text()[-3000:])
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            try:
                connection.request("GET", self.ready_path)
                if connection.getresponse().status in (200, 302):
                    return
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            time.sleep(0.3)
        raise RuntimeError(f"the server did not answer within {timeout} s; see {self.log}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log_file.close()


def started(make: Callable[[int], Server], attempts: int = 3) -> Server:
    """A server made by ``make(port)`` on a free port, ready; tried again on another port
    when a program took the free one before the server could (the machine is shared)."""
    for attempt in range(attempts):
        server = make(free_port())
        try:
            server.wait_ready()
            return server
        except RuntimeError:
            server.stop()
            log = server.log.read_text()
            taken = any(words in log for words in (
                "is not available", "no available port", "already in use"))
            if attempt == attempts - 1 or not taken:
                raise
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base address of a real Voila server serving a copy of ``notebooks/``.

    A copy, so that JupyterLab and Notebook 7 in the tests may save what they like.
    """
    served = tmp_path_factory.mktemp("served") / "notebooks"
    shutil.copytree(NOTEBOOKS, served)
    server = started(lambda port: Server(served, ARTIFACTS / "voila-server.log", port=port))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def lab_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """JupyterLab for developers (``make lab``) on a copy of ``notebooks/``: (address, token).

    A copy, so that JupyterLab and Notebook 7 in the tests may save what they like.
    """
    from mathgames.server.serve import lab_command

    served = tmp_path_factory.mktemp("lab") / "notebooks"
    shutil.copytree(NOTEBOOKS, served)
    token = secrets.token_urlsafe(16)

    def lab(port: int) -> Server:
        return Server(served, ARTIFACTS / "lab-server.log", port=port,
                      command=lab_command(served, port, token),
                      ready_path=f"/api/status?token={token}")

    server = started(lab)
    try:
        yield server.url, token
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless system Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_FLAGS
        )
        try:
            yield launched
        finally:
            launched.close()


def collect_errors(page: Any) -> Any:
    """``page``, its uncaught script errors kept with their stacks in ``page.mg_errors``."""
    page.mg_errors = []
    page.on("pageerror", lambda error: page.mg_errors.append(f"{error}\n{error.stack}"))
    return page


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page (own context, so local storage starts empty) at 1280x900."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    new_page = collect_errors(context.new_page())
    yield new_page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = request.node.nodeid.replace("/", "_").replace("::", "-")[:150]
        try:
            new_page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        except Exception as error:  # a crashed page cannot be photographed
            print(f"no screenshot: {error}", file=sys.stderr)
    context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


ERROR_OUTPUT = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"


def voila_errors(page: Any) -> list[str]:
    """What Voila shows of failed cells: error outputs and its 'error when executing' notes."""
    texts = [page.locator(ERROR_OUTPUT).nth(i).text_content() or ""
             for i in range(page.locator(ERROR_OUTPUT).count())]
    body = page.locator("body").text_content() or ""
    if "There was an error when executing cell" in body or "Traceback" in body:
        texts.append(body[body.find("There was an error"):][:2000] or body[:2000])
    return [text for text in texts if "Error" in text or "error" in text]


def wait_rendered(page: Any, wait_for: str = ".mathgames-board") -> None:
    """Wait until Voila has run the notebook and ``wait_for`` is visible.

    Fails at once with Voila's own message when a cell raised an error.
    """
    deadline = time.monotonic() + PAGE_TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        errors = voila_errors(page)
        if errors:
            pytest.fail("the notebook failed in Voila:\n" + "\n".join(errors))
        if page.locator(wait_for).first.is_visible():
            return
        page.wait_for_timeout(200)
    pytest.fail(f"{wait_for!r} did not appear within {PAGE_TIMEOUT_MS / 1000:.0f} s")


@pytest.fixture
def notebook_page(page: Any, voila_url: str) -> Callable[..., Any]:
    """Open an app notebook in the browser and wait until it is rendered."""

    def open_notebook(name: str, lang: str = "en", wait_for: str = ".mathgames-board") -> Any:
        page.goto(f"{voila_url}/voila/render/{name}?lang={lang}", wait_until="domcontentloaded")
        wait_rendered(page, wait_for)
        return page

    return open_notebook


@pytest.fixture
def lab_page(page: Any, lab_url: tuple[str, str]) -> Callable[..., Any]:
    """Open a notebook in JupyterLab 4 (``ui="lab"``) or Notebook 7 (``ui="notebook"``),
    run all its cells, and wait until ``wait_for`` is visible."""

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def open_in(name: str, ui: str = "lab", wait_for: str = ".mathgames-board") -> Any:
        path = "lab/tree" if ui == "lab" else "notebooks"
        url, token = lab_url
        page.goto(f"{url}/{path}/{name}?token={token}", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=PAGE_TIMEOUT_MS)
        # JupyterLab may ask which kernel to use: take the one it proposes (Python 3).
        dialog = page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept")
        try:
            dialog.wait_for(state="visible", timeout=8_000)
            dialog.click()
        except PlaywrightTimeout:
            pass
        # The real menu, as a teacher would: Run > Run All Cells (queued until the kernel is up).
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        page.wait_for_selector(wait_for, state="visible", timeout=PAGE_TIMEOUT_MS)
        return page

    return open_in
