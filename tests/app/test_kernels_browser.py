"""Kernels of pages that are gone end, and a full server says so, in a real browser.

Each test has its own app server (the ``make app`` command), so that it counts only
its own kernels:

- a game page's kernel ends within 30 s when the page is reloaded (and the reload
  still offers to resume the game), left for another page, closed, or when its
  browser is killed (no close beacon then: the server notices the lost connection);
- with a cap of 2 kernels, two pages play, a third gets the "busy" page in its
  language, and it renders once one of the first two is closed; nothing already
  running is disturbed.
"""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import (
    ARTIFACTS,
    CHROMIUM_FLAGS,
    NOTEBOOKS,
    PAGE_TIMEOUT_MS,
    Server,
    chromium_path,
    free_port,
    wait_rendered,
)
from tests.page_client import kernel_id_of

pytestmark = pytest.mark.browser

GONE_WITHIN = 30  # seconds: the promise for a page that left


def start_server(log: Path, tmp: Path, **options: Any) -> Server:
    served = tmp / "notebooks"
    if not served.exists():
        import shutil

        shutil.copytree(NOTEBOOKS, served)
    server = Server(served, log, **options)
    server.wait_ready()
    return server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # A lost page's kernel waits 120 s for its page to come back (a Wi-Fi blip, a phone
    # asleep: tests/app/test_reaper_grace.py); here 10 s, through Voila's config file, so
    # that the test of a killed browser stays short.
    config = tmp_path / "jupyter-config"
    config.mkdir()
    (config / "voila.json").write_text('{"AppVoila": {"disconnected_grace": 10}}')
    running = start_server(ARTIFACTS / "kernels-server.log", tmp_path,
                           env={"JUPYTER_CONFIG_DIR": str(config)})
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def capped_server(tmp_path: Path) -> Iterator[Server]:
    running = start_server(ARTIFACTS / "capped-server.log", tmp_path, max_kernels=2)
    try:
        yield running
    finally:
        running.stop()


def alive(server: Server, kernel_id: str) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", f"/api/kernels/{kernel_id}")
        status = connection.getresponse().status
    finally:
        connection.close()
    assert status in (200, 404), status
    return status == 200


def wait_gone(server: Server, kernel_id: str) -> float:
    """Seconds until the kernel ended; fails after GONE_WITHIN seconds."""
    start = time.monotonic()
    while time.monotonic() - start < GONE_WITHIN:
        if not alive(server, kernel_id):
            return time.monotonic() - start
        time.sleep(0.5)
    pytest.fail(f"kernel {kernel_id} still runs {GONE_WITHIN} s after its page left")


def page_kernel(page: Any) -> str:
    kernel_id = kernel_id_of(page.content())
    assert kernel_id, "no kernel id in the page"
    return kernel_id


def open_game(page: Any, server: Server, notebook: str = "matematiko.ipynb") -> str:
    page.goto(f"{server.url}/voila/render/{notebook}?lang=en", wait_until="domcontentloaded")
    wait_rendered(page, ".mg-start")
    return page_kernel(page)


def play_a_move(page: Any) -> None:
    page.locator(".mg-start").click()
    page.locator('.mathgames-board [data-cell="a1"]').click()
    page.wait_for_selector('.mathgames-board .mg-number[data-for="a1"]')
    page.wait_for_function("() => !!window.localStorage.getItem('mathgames:matematiko')")


def test_reload_leave_and_close_end_the_page_kernel(server: Server, page: Any) -> None:
    first = open_game(page, server)
    play_a_move(page)

    page.reload(wait_until="domcontentloaded")  # reload: a new kernel, the old one ends
    wait_rendered(page, ".mathgames-resume")
    assert "Resume the game in progress?" in page.locator(".mathgames-resume").text_content()
    second = page_kernel(page)
    assert second != first
    wait_gone(server, first)
    assert alive(server, second)

    page.locator(".mathgames-resume button", has_text="Resume").click()
    page.wait_for_selector('.mathgames-board .mg-number[data-for="a1"]')

    page.goto(f"{server.url}/", wait_until="domcontentloaded")  # away, to the landing page
    wait_rendered(page, ".mg-landing .mg-card")
    landing = page_kernel(page)
    wait_gone(server, second)
    assert alive(server, landing)

    page.close()  # the tab
    wait_gone(server, landing)


def test_a_killed_browser_leaves_no_kernel(server: Server, browser: Any,
                                           tmp_path: Path) -> None:
    """A browser that dies sends nothing: the server notices the lost connection."""
    port = free_port()
    chromium = subprocess.Popen(
        [chromium_path(), "--headless=new", *CHROMIUM_FLAGS, f"--remote-debugging-port={port}",
         f"--user-data-dir={tmp_path / 'profile'}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        connected = None
        while connected is None:
            try:
                connected = browser.browser_type.connect_over_cdp(f"http://127.0.0.1:{port}")
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        page = connected.contexts[0].new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        kernel_id = open_game(page, server, "halma.ipynb")
        assert alive(server, kernel_id)
        os.killpg(chromium.pid, signal.SIGKILL)
        chromium.wait(timeout=30)
        waited = wait_gone(server, kernel_id)
        print(f"kernel of a killed browser ended after {waited:.1f} s")
    finally:
        if chromium.poll() is None:
            os.killpg(chromium.pid, signal.SIGKILL)
            chromium.wait()


def test_a_full_server_answers_busy_until_a_page_closes(capped_server: Server,
                                                        browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.set_default_timeout(PAGE_TIMEOUT_MS)
        kernels = [open_game(page, capped_server) for page in pages[:2]]
        play_a_move(pages[0])
        play_a_move(pages[1])

        third = pages[2]
        third.goto(f"{capped_server.url}/voila/render/halma.ipynb?lang=cs",
                   wait_until="domcontentloaded")
        assert third.locator("h1.mg-busy").text_content() == "Server třídy je zaneprázdněn"
        assert "zkuste to znovu za minutu" in third.locator("main").text_content()
        assert third.locator(".mathgames-board").count() == 0

        # Nothing running was disturbed: the second page still plays.
        pages[1].locator('.mathgames-board [data-cell="b2"]').click()
        pages[1].wait_for_selector('.mathgames-board .mg-number[data-for="b2"]')

        # closed as a browser closes a tab: its beacon ends its kernel at once (a page that
        # lost its connection keeps its kernel for its grace: 30 s on a full server)
        pages[0].close(run_before_unload=True)
        wait_gone(capped_server, kernels[0])
        third.locator("a.mg-button").click()  # "Try again"
        wait_rendered(third, ".mg-start")  # the game page, on its set-up panel
        assert alive(capped_server, kernels[1])
    finally:
        for context in contexts:
            context.close()
