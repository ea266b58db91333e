"""Keyboard and screen-reader play in a real Voila server and Chromium: a whole Triomino
turn without a mouse, announced in a live region; and a game resumed in another language
speaks that language (the players' names too)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mathgames.triomino import Game
from tests.conftest import wait_rendered
from tests.page_checks import axe_violations, english_left

pytestmark = pytest.mark.browser

#: A deal where the bot starts and "You" can then place a tile (pressman, you and a bot).
SEED = 2
LIVE = ".mg-triomino-table .mathgames-live"


def tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Press Tab until the focus is inside ``selector`` (as a keyboard user would)."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.closest(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def press_and_hear(page: Any, key: str) -> str:
    """Press a key and wait for the live region to say something new."""
    before = page.locator(LIVE).text_content()
    page.keyboard.press(key)
    page.wait_for_function("([s, t]) => { const e = document.querySelector(s);"
                           " return e && e.textContent && e.textContent !== t; }",
                           arg=[LIVE, before])
    return page.locator(LIVE).text_content()


def kept_game(page: Any) -> Game:
    page.wait_for_function("() => !!window.localStorage.getItem('mathgames:triomino')")
    saved = page.evaluate("() => window.localStorage.getItem('mathgames:triomino')")
    return Game.from_dict(json.loads(saved)["game"])


def start_by_keyboard(page: Any) -> None:
    tab_to(page, ".mg-seed")
    page.keyboard.press("Control+A")
    page.keyboard.type(str(SEED))
    tab_to(page, ".mg-start")
    page.keyboard.press("Enter")
    page.locator(".mg-triomino-table .mathgames-board").wait_for(state="visible")


def test_a_whole_triomino_turn_by_keyboard_alone(notebook_page: Any) -> None:
    page = notebook_page("triomino.ipynb", wait_for=".mg-start")
    start_by_keyboard(page)
    tab_to(page, ".mg-triomino-table .mathgames-board")
    board = page.locator(".mg-triomino-table .mathgames-board")
    assert board.evaluate("e => getComputedStyle(e).boxShadow") != "none"  # visible focus
    game = kept_game(page)
    assert game.current == 0 and not game.is_start_move
    placement = game.legal_placements()[0]
    hand = game.hand()
    tiles = page.locator(".mg-triomino-table .mg-tile").count()
    # A digit picks the tile, r turns it, n walks the free places, Enter places.
    page.keyboard.press(str(hand.index(placement.tile) + 1))
    page.wait_for_selector('.mg-triomino-rack [stroke-width="8"]')
    for _ in range((3 - placement.rotation) % 3):
        page.keyboard.press("r")
    places = sorted(game.table.frontier())
    heard = ""
    for _ in range(places.index(placement.cell) + 1):
        heard = press_and_hear(page, "n")
    number = places.index(placement.cell) + 1
    assert heard.startswith(f"Free place {number} of {len(places)}")
    assert heard.strip().endswith("the tile fits here")
    page.wait_for_selector(".mg-triomino-table .mg-cursor")
    heard = press_and_hear(page, "Enter")
    page.wait_for_function("n => document.querySelectorAll("
                           "'.mg-triomino-table .mg-tile').length > n", arg=tiles)
    assert f"You placed {placement.tile}" in heard
    assert kept_game(page).table[placement.cell].tile == placement.tile
    # The board keeps the focus for the next turn, and a refusal is heard too.
    assert page.evaluate("() => !!document.activeElement?.closest('.mg-triomino-table')")
    page.keyboard.press("Enter")  # no tile picked: refused, and the refusal is heard
    page.wait_for_function("s => document.querySelector(s)?.textContent"
                           ".includes('Select a tile from your rack first')", arg=LIVE)
    assert page.mg_errors == []


def test_a_game_resumed_in_another_language_speaks_it(notebook_page: Any, page: Any,
                                                      voila_url: str) -> None:
    notebook_page("triomino.ipynb", wait_for=".mg-start")
    start_by_keyboard(page)
    page.wait_for_selector(".mg-status b")
    assert "You to play" in page.locator(".mg-status").text_content()
    kept_game(page)
    page.goto(f"{voila_url}/voila/render/triomino.ipynb?lang=pl", wait_until="domcontentloaded")
    wait_rendered(page, ".mathgames-resume")
    page.locator(".mathgames-resume .mod-success").click()
    page.wait_for_selector(".mg-triomino-table [data-cell]")
    page.wait_for_function("() => document.querySelector('.mg-status')?.textContent"
                           ".includes('Ty')")
    status = page.locator(".mg-status").text_content()
    assert "Bot 1" in status and "You" not in status
    assert english_left(page, "pl") == []
    # Halma's cell titles follow the language too.
    page.goto(f"{voila_url}/voila/render/halma.ipynb?lang=cs", wait_until="domcontentloaded")
    wait_rendered(page, ".mg-start")
    page.locator(".mg-start").click()
    page.wait_for_selector('.mg-board [data-cell="a1"]')
    label = page.locator('.mg-board [data-cell="a1"]').get_attribute("aria-label")
    assert label == "a1: Hráč 1 (modrá kolečka)", label
    assert page.locator('.mg-board svg[role="group"]').count() == 1


def disclosure_expanded(page: Any, name: str) -> bool | None:
    """Whether Chromium's accessibility tree (what a screen reader reads) calls the
    disclosure named ``name`` expanded."""
    session = page.context.new_cdp_session(page)
    for node in session.send("Accessibility.getFullAXTree")["nodes"]:
        if node.get("name", {}).get("value") == name and node["role"]["value"] != "StaticText":
            states = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            return bool(states.get("expanded"))
    return None


def test_how_strong_opens_by_keyboard_and_tells_a_screen_reader(notebook_page: Any) -> None:
    # the Chinese checkers page in Russian: the students' words show, the figures of
    # the star's bench runs wait behind "How strong?" until Enter opens it
    page = notebook_page("chinese_checkers.ipynb", lang="ru", wait_for=".mg-start")
    words = page.locator(".mg-level-words").inner_text()
    assert "примерно 9 партий из 10" in words and "мс" not in words
    figures = page.locator(".mg-level-figures ul")
    assert not figures.is_visible()
    name = page.locator(".mg-level-figures summary").inner_text()
    assert name == "Насколько сильны боты?"
    assert disclosure_expanded(page, name) is False
    tab_to(page, ".mg-level-figures summary")
    page.keyboard.press("Enter")
    figures.wait_for(state="visible")
    assert disclosure_expanded(page, name) is True
    text = figures.inner_text()
    assert "94% из 200" in text and "1,1 мс" in text  # the star's medium level
    assert axe_violations(page) == []
    page.keyboard.press("Enter")  # and closes again
    figures.wait_for(state="hidden")
    assert page.mg_errors == []
