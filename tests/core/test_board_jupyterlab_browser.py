"""The board widget in JupyterLab 4 and Notebook 7, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("ui", ["lab", "notebook"])
def test_board_demo_plays_in_jupyter(lab_page: Any, ui: str) -> None:
    page = lab_page("board_demo.ipynb", ui=ui)
    page.locator('.mathgames-board [data-cell="r1c2"]').click()
    page.wait_for_selector('.mathgames-board [data-cell="r1c2"][data-on="1"]')
    board = page.locator(".mathgames-board")
    board.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_selector('.mathgames-board [data-cell="r2c2"][data-on="1"]')
    # Notebook 7 reports errors of its own plugins on start ("Command 'filebrowser:open-path'
    # not registered", "reading 'schema'"): only errors from the widget's code count here.
    ours = [e for e in page.mg_errors if any(
        word in e for word in ("mathgames", "anywidget", "board", "data-cell", "svg"))]
    assert ours == []
