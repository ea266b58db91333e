"""End to end: a whole solitaire game of Matematiko in Voila, played by clicking."""

from __future__ import annotations

from typing import Any

import pytest

from mathgames.matematiko.deck import deal_for_code
from mathgames.matematiko.match import cell_name
from mathgames.matematiko.rules import score_grid

pytestmark = pytest.mark.browser


def test_a_full_game_by_clicking_shows_the_cores_total(notebook_page: Any) -> None:
    page = notebook_page("matematiko.ipynb", wait_for=".mg-start")
    code = page.locator(".mg-code-input input").input_value()
    deal = deal_for_code(code)
    page.locator(".mg-start").click()
    board = page.locator(".mathgames-board")
    board.wait_for(state="visible")
    order = [(k * 8) % 25 for k in range(25)]  # every cell once, in a scrambled order
    for k, index in enumerate(order):
        name = cell_name(index)
        page.wait_for_selector(f'.mathgames-board .mg-current:text-is("{deal[k]}")')
        page.locator(f'.mathgames-board [data-cell="{name}"]').click()
        page.wait_for_selector(f'.mathgames-board .mg-number[data-for="{name}"]')
        assert page.locator(f'.mathgames-board .mg-number[data-for="{name}"]').text_content() \
            == str(deal[k])
    grid = [0] * 25
    for k, index in enumerate(order):
        grid[index] = deal[k]
    expected = score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total
    page.wait_for_selector(".mg-results-table")
    page.wait_for_function(
        "text => document.querySelector('.mg-total-value')?.textContent === text",
        arg=str(expected))
    assert page.locator(".mathgames-board .mg-total-svg").get_attribute("data-total") \
        == str(expected)
    assert page.locator(".mg-csv a").get_attribute("href").startswith("data:text/csv;base64,")
    assert page.mg_errors == []
