"""Each game page in Voila, as a student meets it: a refused move is explained, and a
reload offers to resume the game in progress (nothing lost)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mathgames.core.errors import IllegalMoveError
from mathgames.halma import Game as HalmaGame
from mathgames.triomino import Game as TriominoGame
from mathgames.triomino import Placement, cell_id
from mathgames.triomino.view import rack_id
from tests.conftest import wait_rendered

pytestmark = pytest.mark.browser


def kept_copy(page: Any, key: str) -> str | None:
    return page.evaluate("key => window.localStorage.getItem('mathgames:' + key)", key)


def reload_and_resume(page: Any) -> None:
    """Reload the page; the banner offers the kept game; take it."""
    page.reload(wait_until="domcontentloaded")
    wait_rendered(page, ".mathgames-resume")
    banner = page.locator(".mathgames-resume")
    assert "Resume the game in progress?" in banner.text_content()
    banner.locator("button", has_text="Resume").click()
    banner.wait_for(state="hidden")


def test_matematiko_refusal_and_resume(notebook_page: Any) -> None:
    page = notebook_page("matematiko.ipynb", wait_for=".mg-start")
    page.locator(".mg-start").click()
    board = page.locator(".mathgames-board")
    board.wait_for(state="visible")
    for name in ("a1", "b2", "c3"):
        page.locator(f'.mathgames-board [data-cell="{name}"]').click()
        page.wait_for_selector(f'.mathgames-board .mg-number[data-for="{name}"]')
    numbers = {name: page.locator(f'.mathgames-board .mg-number[data-for="{name}"]')
               .text_content() for name in ("a1", "b2", "c3")}
    total = page.locator(".mg-total-value").text_content()
    # A taken cell: refused with an explanation that names the cell; nothing changes.
    page.locator('.mathgames-board [data-cell="b2"]').click()
    page.wait_for_function(
        "() => document.querySelector('.mg-message')?.textContent.includes('B2')"
        " || document.querySelector('.mg-message')?.textContent.includes('b2')")
    assert page.locator(".mathgames-board .mg-number").count() == 3
    assert kept_copy(page, "matematiko")
    reload_and_resume(page)
    page.wait_for_selector('.mathgames-board .mg-number[data-for="c3"]')
    for name, number in numbers.items():
        assert page.locator(f'.mathgames-board .mg-number[data-for="{name}"]') \
            .text_content() == number
    page.wait_for_function(
        "text => document.querySelector('.mg-total-value')?.textContent === text", arg=total)
    assert page.mg_errors == []


def illegal_triomino_move(game: TriominoGame) -> tuple[Placement, str]:
    """A placement of the current player's rack that the rules refuse, and why."""
    hand = game.hands[game.current]
    for tile in sorted(hand, key=str):
        if tile.kind != "different":
            continue
        for cell in sorted(game.table.frontier()):
            for rotation in range(3):
                placement = Placement(tile, cell, rotation)
                try:
                    game.table.check(placement)
                except IllegalMoveError as error:
                    if "corner" in str(error):
                        return placement, str(error)
    raise AssertionError("no refused placement in this position")


def test_triomino_refusal_names_the_corner_and_resume(notebook_page: Any) -> None:
    page = notebook_page("triomino.ipynb", wait_for=".mg-start")
    seed = page.locator(".mg-seed input")
    seed.fill("3")
    seed.press("Tab")
    page.locator(".mg-start").click()
    page.locator(".mg-triomino-table .mathgames-board").wait_for(state="visible")
    game = TriominoGame("pressman", 2, 3)
    first = game.legal_placements()[0]
    page.locator(f'.mg-triomino-rack [data-cell="{rack_id(first.tile)}"]').click()
    for _ in range((3 - first.rotation) % 3):
        page.locator(".mg-rotate").click()
    page.locator(f'.mg-triomino-table [data-cell="{cell_id(first.cell)}"]').click()
    page.wait_for_function(
        "() => document.querySelectorAll('.mg-triomino-table .mg-tile').length >= 2")
    page.wait_for_function("() => !!window.localStorage.getItem('mathgames:triomino')"
                           " && JSON.parse(window.localStorage.getItem('mathgames:triomino'))"
                           ".game.table.length >= 2")
    kept = TriominoGame.from_dict(json.loads(kept_copy(page, "triomino"))["game"])
    placement, why = illegal_triomino_move(kept)
    # The score sheet is a widget of its own and may update a moment after the table and the
    # kept copy: wait until it shows the kept game's totals before taking it as the reference.
    totals = "Total" + "".join(map(str, kept.scores))
    page.wait_for_function(
        "totals => document.querySelector('.mg-score-sheet')?.textContent.endsWith(totals)",
        arg=totals)
    sheet_before = page.locator(".mg-score-sheet").text_content()
    page.locator(f'.mg-triomino-rack [data-cell="{rack_id(placement.tile)}"]').click()
    for _ in range((3 - placement.rotation) % 3):
        page.locator(".mg-rotate").click()
    page.locator(f'.mg-triomino-table [data-cell="{cell_id(placement.cell)}"]').click()
    message = page.locator(".mg-message")
    page.wait_for_function(
        "() => document.querySelector('.mg-message')?.textContent.includes('corner')")
    assert why.split(" but ")[0] in message.text_content()
    assert page.locator(".mg-score-sheet").text_content() == sheet_before
    tiles = page.locator(".mg-triomino-table .mg-tile").count()
    reload_and_resume(page)
    page.wait_for_function(
        "n => document.querySelectorAll('.mg-triomino-table .mg-tile').length === n", arg=tiles)
    # The score sheet is a widget of its own: it may arrive a moment after the table.
    page.wait_for_function(
        "text => document.querySelector('.mg-score-sheet')?.textContent === text",
        arg=sheet_before)
    assert page.mg_errors == []


@pytest.mark.parametrize("notebook", ["halma.ipynb", "chinese_checkers.ipynb"])
def test_halma_refusal_and_resume(notebook_page: Any, notebook: str) -> None:
    page = notebook_page(notebook, wait_for=".mg-start")
    page.locator(".mg-start").click()  # the default: you against a bot
    page.locator(".mathgames-board").wait_for(state="visible")
    # A piece that can move and one of its destinations, from the rules core.
    game = HalmaGame("halma" if notebook == "halma.ipynb" else "star", 2)
    move = game.legal_moves()[0]
    start, destination = move.start, move.end
    page.locator(f'.mathgames-board [data-cell="{start}"]').click()
    page.wait_for_selector(f'.mathgames-board [data-cell="{destination}"] .mg-dest')
    # A far empty cell it cannot reach: refused with an explanation naming both cells.
    far = next(name for name in reversed(game.topology.names)
               if game.owner(name) is None and name not in game.moves_from(start))
    page.locator(f'.mathgames-board [data-cell="{far}"]').click()
    page.wait_for_function(
        "([a, b]) => { const t = document.querySelector('.mg-message')?.textContent || '';"
        " return t.includes(a) && t.includes(b); }", arg=[far, start])
    assert page.locator(".mg-move-list").text_content().strip() in ("", "-", "Moves")
    # The piece is still chosen: now the legal move, and the bot's answer.
    page.wait_for_selector(f'.mathgames-board [data-cell="{destination}"] .mg-dest')
    page.locator(f'.mathgames-board [data-cell="{destination}"]').click()
    page.wait_for_function(
        "() => (document.querySelector('.mg-move-list')?.textContent.match(/-/g) || [])"
        ".length >= 2")
    moves = page.locator(".mg-move-list").text_content()
    assert f"{start}-{destination}" in moves
    reload_and_resume(page)
    page.wait_for_function(
        "text => document.querySelector('.mg-move-list')?.textContent === text", arg=moves)
    assert page.mg_errors == []


#: A key as a keyboard of another layout sends it to the focused board: ``key`` is what the
#: layout writes, ``code`` the key's place (its Latin label on the keyboard).
PRESS_JS = """([selector, key, code]) => document.querySelector(selector).dispatchEvent(
    new KeyboardEvent('keydown', {key, code, bubbles: true, cancelable: true}))"""


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_shortcuts_work_on_russian_and_czech_keyboards(notebook_page: Any, lang: str) -> None:
    """Russian letters and Czech digits (the top row writes ě, š, ... without Shift) reach
    the game as the keys' Latin labels: 2 picks the second tile, r turns it, h shows hints."""
    page = notebook_page("triomino.ipynb", lang=lang, wait_for=".mg-start")
    seed = page.locator(".mg-seed input")
    seed.fill("3")
    seed.press("Tab")
    page.locator(".mg-start").click()
    board = ".mg-triomino-table .mathgames-board"
    page.locator(board).wait_for(state="visible")
    page.locator(board).focus()
    second = rack_id(TriominoGame("pressman", 2, 3).hand()[1])
    tile = f'.mg-triomino-rack [data-cell="{second}"]'
    press = {"ru": ("2", "к", "р"), "cs": ("ě", "r", "h")}[lang]
    page.evaluate(PRESS_JS, [board, press[0], "Digit2"])
    page.wait_for_selector(f'{tile} polygon[fill="#ffe9a8"]')
    digits = page.locator(tile).text_content()
    page.evaluate(PRESS_JS, [board, press[1], "KeyR"])
    page.wait_for_function("([sel, text]) => document.querySelector(sel)?.textContent !== text",
                           arg=[tile, digits])
    page.evaluate(PRESS_JS, [board, press[2], "KeyH"])
    page.wait_for_selector(".mg-hint.mod-active")
    assert page.mg_errors == []


def test_a_page_whose_kernel_connection_was_disposed_comes_back_by_itself(
        notebook_page: Any) -> None:
    """The browser's connection object gives up on a kernel that still runs (it does when its
    socket closes before opening and the server's answer about the kernel is an error): the
    page says the connection is lost, reloads itself and offers the game back, with no error
    on the page. A disposed connection cannot reconnect: asking it to throws."""
    page = notebook_page("matematiko.ipynb", wait_for=".mg-start")
    page.locator(".mg-start").click()
    page.locator('.mathgames-board [data-cell="a1"]').click()
    page.wait_for_selector('.mathgames-board .mg-number[data-for="a1"]')
    number = page.locator('.mathgames-board .mg-number[data-for="a1"]').text_content()
    page.evaluate("() => window.jupyterapp.widgetManager.kernel.dispose()")
    page.wait_for_selector(".mg-connection-lost", state="visible")
    wait_rendered(page, ".mathgames-resume")  # after a reload that nobody asked for
    page.locator(".mathgames-resume button", has_text="Resume").click()
    page.wait_for_selector('.mathgames-board .mg-number[data-for="a1"]')
    assert page.locator('.mathgames-board .mg-number[data-for="a1"]').text_content() == number
    assert page.mg_errors == []
