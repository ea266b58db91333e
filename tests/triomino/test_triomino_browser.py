"""End to end in Voila: place a tile by clicking and see the score sheet change."""

from __future__ import annotations

from typing import Any

import pytest

from mathgames.triomino import Game, cell_id
from mathgames.triomino.view import rack_id

pytestmark = pytest.mark.browser

SEED = 3


def test_place_a_tile_by_clicking(notebook_page: Any) -> None:
    page = notebook_page("triomino.ipynb", wait_for=".mg-start")
    seed = page.locator(".mg-seed input")
    seed.fill(str(SEED))
    seed.press("Tab")
    page.locator(".mg-start").click()
    table = page.locator(".mg-triomino-table .mathgames-board")
    table.wait_for(state="visible")
    # the same deal in the rules core: the human (player 1) starts with the start tile
    game = Game("pressman", 2, SEED)
    assert game.current == 0
    placement = game.legal_placements()[0]
    sheet = page.locator(".mg-score-sheet")
    assert "tile " not in (sheet.text_content() or "")
    page.locator(f'.mg-triomino-rack [data-cell="{rack_id(placement.tile)}"]').click()
    for _ in range((3 - placement.rotation) % 3):  # Rotate turns 0 -> 2 -> 1
        page.locator(".mg-rotate").click()
    page.locator(f'.mg-triomino-table [data-cell="{cell_id(placement.cell)}"]').click()
    expected = f"tile {placement.tile} +{placement.tile.value}"
    page.wait_for_function(
        "text => document.querySelector('.mg-score-sheet').textContent.includes(text)",
        arg=expected)
    text = sheet.text_content() or ""
    assert "start bonus +10" in text
    # the bot answered: a second tile lies on the table
    page.wait_for_function(
        "() => document.querySelectorAll('.mg-triomino-table .mg-tile').length >= 2")
    assert page.mg_errors == []
