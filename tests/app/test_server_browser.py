"""The app's server settings take effect, and a game page loads cleanly in Voila."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def test_a_game_page_loads_without_console_errors_and_every_setting_is_known(
    page: Any, voila_url: str, notebook_page: Any,
) -> None:
    console_errors: list[str] = []
    failed_here: list[str] = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("requestfailed", lambda request: failed_here.append(request.url)
            if request.url.startswith(voila_url) else None)
    notebook_page("board_demo.ipynb")
    page.wait_for_timeout(1000)  # late module loads report their errors after the board shows

    # Outside resources (Voila's template links a CDN font) may be unreachable in a classroom:
    # the browser reports those as failed loads. Nothing else may fail.
    assert [text for text in console_errors if not text.startswith("Failed to load resource")] == []
    assert failed_here == []
    assert page.mg_errors == []

    # The page's websocket is open, so the server has read every setting it will use: an
    # option in the wrong section is only a warning in the log, and would do nothing.
    log = (ARTIFACTS / "voila-server.log").read_text()
    assert re.findall(r"Config option `\w+` not recognized by `\w+`", log) == []
