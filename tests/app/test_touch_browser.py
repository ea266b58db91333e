"""Every game page played by touch on a phone, in Voila and Chromium emulating a phone's
touch screen: taps on the board, its pieces and its buttons, as a student with a phone would.
The page never scrolls sideways, and its boards and buttons forbid a double-tap zoom
(Chromium's phone emulation does not zoom on two taps either way, so the style is checked)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mathgames.halma import Game as HalmaGame
from mathgames.triomino import Game as TriominoGame
from mathgames.triomino import cell_id
from mathgames.triomino.mosaic_gallery import GALLERY
from mathgames.triomino.mosaic_widget import MosaicApp
from mathgames.triomino.view import rack_id
from tests.conftest import PAGE_TIMEOUT_MS, collect_errors, wait_rendered
from tests.page_checks import PHONE

pytestmark = pytest.mark.browser

#: How far the page reaches sideways, and how wide the phone's screen is.
VIEW_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


@pytest.fixture
def phone(browser: Any, voila_url: str) -> Iterator[Callable[[str, str], Any]]:
    """Open an app page in a phone's browser: a touch screen, no mouse."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                  device_scale_factor=3)
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    page = collect_errors(context.new_page())

    def open_page(name: str, wait_for: str) -> Any:
        page.goto(f"{voila_url}/voila/render/{name}?lang=en", wait_until="domcontentloaded")
        wait_rendered(page, wait_for)
        assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
        return page

    yield open_page
    context.close()


def double_tap(page: Any, selector: str) -> None:
    """Two quick taps on the middle of an element: two taps for the game."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(60)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(600)


def assert_kept_its_shape(page: Any) -> None:
    width, viewport = page.evaluate(VIEW_JS)
    assert width <= viewport, f"the page scrolls sideways: {width} px in {viewport}"
    # taps are taps: no double-tap zoom (nor its wait) on the boards and the buttons
    zooming = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.mathgames-board, .mg-app button')).filter(e => e.offsetParent !== null
        && getComputedStyle(e).touchAction !== 'manipulation')
        .map(e => e.className.split(' ').find(c => c.startsWith('mg-')) || e.tagName)""")
    assert zooming == [], zooming
    assert page.mg_errors == []


def test_matematiko_by_touch(phone: Callable[[str, str], Any]) -> None:
    page = phone("matematiko.ipynb", ".mg-start")
    page.locator(".mg-start").tap()
    for name in ("a1", "b2"):
        page.locator(f'.mathgames-board [data-cell="{name}"]').tap()
        page.wait_for_selector(f'.mathgames-board .mg-number[data-for="{name}"]')
    double_tap(page, '.mathgames-board [data-cell="e5"]')  # the next number, then a refusal
    page.wait_for_selector('.mathgames-board .mg-number[data-for="e5"]')
    assert page.locator(".mathgames-board .mg-number").count() == 3
    page.locator(".mg-undo").tap()  # solitaire: the automatic call, then the e5 go back
    page.wait_for_selector('.mathgames-board .mg-number[data-for="e5"]', state="detached")
    assert_kept_its_shape(page)


def test_triomino_by_touch(phone: Callable[[str, str], Any]) -> None:
    page = phone("triomino.ipynb", ".mg-start")
    seed = page.locator(".mg-seed input")
    seed.tap()
    seed.fill("3")
    seed.press("Tab")
    page.locator(".mg-start").tap()
    page.locator(".mg-triomino-table .mathgames-board").wait_for(state="visible")
    first = TriominoGame("pressman", 2, 3).legal_placements()[0]
    page.locator(f'.mg-triomino-rack [data-cell="{rack_id(first.tile)}"]').tap()
    for _ in range((3 - first.rotation) % 3):
        page.locator(".mg-rotate").tap()
    page.locator(f'.mg-triomino-table [data-cell="{cell_id(first.cell)}"]').tap()
    page.wait_for_function(  # the first tile, and the bot's answer
        "() => document.querySelectorAll('.mg-triomino-table .mg-tile').length >= 2")
    assert_kept_its_shape(page)


@pytest.mark.parametrize(("notebook", "variant"), [("halma.ipynb", "halma"),
                                                   ("chinese_checkers.ipynb", "star")])
def test_halma_by_touch(phone: Callable[[str, str], Any], notebook: str, variant: str) -> None:
    page = phone(notebook, ".mg-start")
    page.locator(".mg-start").tap()
    page.locator(".mathgames-board").wait_for(state="visible")
    move = HalmaGame(variant, 2).legal_moves()[0]
    page.locator(f'.mathgames-board [data-cell="{move.start}"]').tap()
    page.wait_for_selector(f'.mathgames-board [data-cell="{move.end}"] .mg-dest')
    page.locator(f'.mathgames-board [data-cell="{move.end}"]').tap()
    page.wait_for_function(  # the move, and the bot's answer
        "() => (document.querySelector('.mg-move-list')?.textContent.match(/-/g) || [])"
        ".length >= 2")
    assert f"{move.start}-{move.end}" in page.locator(".mg-move-list").text_content()
    assert_kept_its_shape(page)


def test_mosaic_by_touch(phone: Callable[[str, str], Any]) -> None:
    page = phone("mosaic.ipynb", ".mg-mosaic-board .mathgames-board")
    easiest = min(GALLERY, key=lambda p: p.size)
    app = MosaicApp()
    app.choose_puzzle(easiest.key)
    cells = app.target_ids()
    page.locator(".mg-mosaic-mode select").select_option(index=1 + GALLERY.index(easiest))
    page.locator(f'.mg-mosaic-board [data-cell="{cells[0]}"]').wait_for(state="attached")
    for count, cell in enumerate(cells[:3], start=1):
        page.locator(f'.mg-mosaic-board [data-cell="{cell}"]').tap()
        page.wait_for_function(
            "n => document.querySelectorAll('.mg-mosaic-board [data-filled]').length == n",
            arg=count)
    assert_kept_its_shape(page)
