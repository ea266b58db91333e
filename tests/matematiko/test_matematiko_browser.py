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


@pytest.mark.parametrize("player", ["Ann", "Maximilian-Alexander", "Щербаковская-Кузнецова",
                                    "Wolfgang Amadeus Mozart-Schmidt Junior X"])
def test_a_long_name_stays_left_of_the_called_number(page: Any, player: str) -> None:
    """A player's name (up to 40 characters in a match) is drawn beside the called number's
    card, never under it, and stays readable (at least 16 units high); measured in Chromium."""
    from mathgames.matematiko.view import render_grid

    svg = render_grid([None] * 25, current=13, code="ABC123", player=player, calls=25)
    page.set_content(f"<html><body style='margin:0'><div style='width:710px'>{svg}</div>"
                     "</body></html>")
    name, card, size = page.evaluate("""() => {
        const name = document.querySelector('.mg-player-name');
        const card = document.querySelector('.mg-current-card');
        const box = e => { const b = e.getBBox(); return {x: b.x, width: b.width}; };
        return [box(name), box(card), Number(name.getAttribute('font-size'))]; }""")
    assert name["width"] > 0
    assert name["x"] + name["width"] < card["x"], (player, name, card)
    assert size >= 16
