"""End to end: the board widget in a real Voila server and a real Chromium."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_click_in_browser_is_drawn_back_by_python(notebook_page: Any) -> None:
    page = notebook_page("board_demo.ipynb")
    cell = page.locator('.mathgames-board [data-cell="r2c1"]')
    assert cell.get_attribute("data-on") == "0"
    cell.click()
    # Python toggled the cell and re-rendered the SVG: the new markup says so.
    page.wait_for_selector('.mathgames-board [data-cell="r2c1"][data-on="1"]')
    assert "1" in page.locator(".mathgames-board .mg-demo-count").text_content()
    assert "r2c1" in page.locator(".mg-status").text_content()
    assert page.mg_errors == []


def test_keys_in_browser_move_the_cursor_and_toggle(notebook_page: Any) -> None:
    page = notebook_page("board_demo.ipynb")
    board = page.locator(".mathgames-board")
    board.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_function(
        "() => document.querySelector('.mg-status')?.textContent.includes('ArrowDown')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector('.mathgames-board [data-cell="r1c1"][data-on="1"]')


def test_forged_messages_do_not_break_the_kernel(notebook_page: Any) -> None:
    """Messages forged by a page script reach the kernel, are refused, and change nothing."""
    page = notebook_page("board_demo.ipynb")
    page.locator('.mathgames-board [data-cell="r3c3"]').click()
    page.wait_for_selector('.mathgames-board [data-cell="r3c3"][data-on="1"]')
    sent = page.evaluate(
        """async () => {
            const manager = window.jupyterapp._widgetManager;
            const models = await Promise.all(Object.values(manager._models));
            const board = models.find(m => typeof m.get('svg') === 'string');
            const forged = [
              {type: 'click', cell: 'r9c9'}, {type: 'click', cell: 42},
              {type: 'click', cell: 'x'.repeat(100000)}, {type: 'key', key: 'F12'},
              {type: 'nonsense'}, 'not an object', [1, 2], null,
              {type: 'stored', key: 'other', data: 'x'},
            ];
            for (const message of forged) { board.send(message); }
            // A forged state update that tries to draw a board of its own.
            board.comm.send({method: 'update', buffer_paths: [],
                             state: {svg: '<svg><rect data-cell="evil"/></svg>'}});
            return forged.length + 1;
        }"""
    )
    assert sent == 10
    # The kernel is alive and the board unchanged: a real click still works and r3c3 is still on.
    page.locator('.mathgames-board [data-cell="r0c0"]').click()
    page.wait_for_selector('.mathgames-board [data-cell="r0c0"][data-on="1"]')
    assert page.locator('.mathgames-board [data-cell="r3c3"][data-on="1"]').count() == 1
    assert page.locator('.mathgames-board [data-cell="evil"]').count() == 0
    assert "r0c0" in page.locator(".mg-status").text_content()
