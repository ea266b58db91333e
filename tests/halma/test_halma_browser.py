"""End to end: Chinese checkers in Voila, a jump chain made by clicking."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def click_and_wait(page: Any, cell: str, selector: str) -> None:
    page.locator(f'.mathgames-board [data-cell="{cell}"]').first.click()
    page.wait_for_selector(selector, state="attached")


def test_a_jump_chain_by_clicking(notebook_page: Any) -> None:
    page = notebook_page("chinese_checkers.ipynb", wait_for=".mg-start")
    page.locator(".mg-seat-2 select").select_option(label="Human")  # hot seat: two humans
    page.locator(".mg-start").click()
    page.locator(".mathgames-board").wait_for(state="visible")
    # two opening steps, then player 1's b3 can jump twice: b3 over c4 to h5, over i5 to j5
    click_and_wait(page, "d4", '.mathgames-board [data-cell="i5"] .mg-dest')
    click_and_wait(page, "i5", '.mathgames-board [data-cell="i5"] title:text("player 1")')
    click_and_wait(page, "d14", '.mathgames-board [data-cell="h13"] .mg-dest')
    click_and_wait(page, "h13", '.mathgames-board [data-cell="h13"] title:text("player 2")')
    click_and_wait(page, "b3", '.mathgames-board [data-cell="j5"] .mg-dest')
    # pointing at the destination shows its two-jump path
    overlay = page.locator('.mathgames-board [data-hover-for="j5"]')
    assert not overlay.is_visible()
    page.locator('.mathgames-board [data-cell="j5"]').hover()
    page.wait_for_selector('.mathgames-board [data-hover-for="j5"].mg-shown')
    assert overlay.locator("text").all_text_contents() == ["1", "2"]
    click_and_wait(page, "j5", '.mathgames-board [data-cell="j5"] title:text("player 1")')
    # The move list and the status line are widgets of their own: wait for them too.
    page.wait_for_function(
        "() => document.querySelector('.mg-move-list')?.textContent.includes('b3-h5-j5')")
    page.wait_for_function(
        "() => document.querySelector('.mg-status')?.textContent.includes('Player 2')")
    assert page.mg_errors == []
