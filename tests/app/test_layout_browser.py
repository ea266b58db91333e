"""Every game page on a projector (1280x720) and a phone (390x844), in every language,
in a real Voila server and Chromium: what must be on screen is, no button label is cut,
no control is drawn over another, the cells are big enough to hit, axe-core finds no
serious accessibility problem, and a page in Polish, Czech or Russian shows no English text.

One page load per game and language; the phone layout is checked by resizing that same
page (the layouts are CSS media queries). The smallest clickable cell of each board is
written to ``test-artifacts/layout-report.txt``. The lessons are checked on a phone on the
visit that answers their questions (``tests/lessons/test_lesson_answers_browser.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from mathgames.triomino.rules import PRESETS
from tests.conftest import ARTIFACTS, wait_rendered
from tests.page_checks import (
    FIELDS_APART_JS,
    LABEL_CUT_JS,
    MIN_CELL_PX,
    MIN_TEXT_PX,
    NULL_TIPS_JS,
    OVERFLOW_JS,
    OVERLAP_JS,
    PAGE_CUT_JS,
    PHONE,
    PROJECTOR,
    RECT_JS,
    SMALL_TEXT_JS,
    SMALLEST_JS,
    axe_violations,
    check_inside,
    english_left,
    wait_layout,
    wait_outputs,
)

pytestmark = pytest.mark.browser

GAMES = {
    "triomino.ipynb": {
        "board": ".mg-triomino-table .mathgames-board",
        "own": ".mg-triomino-rack .mathgames-board",
        "buttons": [".mg-rotate", ".mg-hint", ".mg-draw", ".mg-pass", ".mg-undo", ".mg-new"],
    },
    "matematiko.ipynb": {  # played as a class game: the caller's button too
        "board": ".mg-matematiko-grid .mathgames-board",
        "own": ".mg-matematiko-grid .mathgames-board",
        "buttons": [".mg-call", ".mg-undo", ".mg-hint", ".mg-new"],
    },
    "halma.ipynb": {
        "board": ".mg-board .mathgames-board",
        "own": ".mg-board .mathgames-board",
        "buttons": [".mg-undo", ".mg-new", ".mg-zoom-in"],
    },
    "chinese_checkers.ipynb": {
        "board": ".mg-board .mathgames-board",
        "own": ".mg-board .mathgames-board",
        "buttons": [".mg-undo", ".mg-new", ".mg-zoom-in"],
    },
}
LANGS = ["en", "pl", "cs", "ru"]
REPORT: list[str] = []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("notebook", list(GAMES))
def test_game_page_fits_speaks_the_language_and_passes_axe(
        page: Any, voila_url: str, notebook: str, lang: str) -> None:
    parts = GAMES[notebook]
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{voila_url}/voila/render/{notebook}?lang={lang}", wait_until="domcontentloaded")
    wait_rendered(page, ".mg-start")
    problems: list[str] = []
    # The set-up panel, on both screens.
    for size in (PROJECTOR, PHONE):
        page.set_viewport_size(size)
        wait_layout(page)
        problems += [f"set-up {size['width']}: cut label {t}" for t in page.evaluate(OVERFLOW_JS)]
        problems += [f"set-up {size['width']}: cut label {t}"
                     for t in page.evaluate(LABEL_CUT_JS)]
        problems += [f"set-up: small text {t}" for t in page.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)]
        problems += [f"set-up {size['width']}: overlap {t}" for t in page.evaluate(OVERLAP_JS)]
        if size == PHONE:
            problems += [f"set-up on a phone: fields apart: {t}"
                         for t in page.evaluate(FIELDS_APART_JS)]
        rect = page.evaluate(RECT_JS, ".mg-start")
        if rect["right"] > rect["vw"] + 0.5:
            problems.append(f"set-up {size['width']}: the Start button sticks out: {rect}")
    if lang != "en":
        problems += [f"set-up: English text {t!r}" for t in english_left(page, lang)]
    problems += [f"axe, set-up: {v}" for v in axe_violations(page)]
    problems += [f"set-up: empty tooltip {t}" for t in page.evaluate(NULL_TIPS_JS)]
    if notebook == "triomino.ipynb":  # the custom rules' many fields, labelled
        last = page.locator(".mg-preset select option").count() - 1  # "custom" comes last
        page.locator(".mg-preset select").select_option(index=last)
        page.wait_for_selector(".mg-custom-rules .widget-inline-hbox")
        problems += [f"custom rules: cut label {t}" for t in page.evaluate(LABEL_CUT_JS)]
        problems += [f"custom rules: overlap {t}" for t in page.evaluate(OVERLAP_JS)]
        problems += [f"axe, custom rules: {v}" for v in axe_violations(page)]
        page.locator(".mg-preset select").select_option(index=list(PRESETS).index("pressman"))
    if notebook == "matematiko.ipynb":
        page.locator(".mg-mode button").nth(1).click()  # a class game
        page.wait_for_selector(".mg-names textarea")
    page.set_viewport_size(PROJECTOR)
    page.locator(".mg-start").click()
    if notebook == "matematiko.ipynb":
        page.locator(".mg-call").click()
        page.wait_for_function("() => document.querySelector('.mg-current')?.textContent")
    page.locator(parts["board"]).wait_for(state="visible")
    page.wait_for_selector(parts["board"] + " [data-cell]")
    wait_layout(page)
    cells = {}
    for name, size in (("projector", PROJECTOR), ("phone", PHONE)):
        page.set_viewport_size(size)
        wait_layout(page)
        check_inside(page, [parts["board"], parts["own"], *parts["buttons"]],
                     f"{notebook} {lang} {name}")
        problems += [f"{name}: cut label {t}" for t in page.evaluate(OVERFLOW_JS)]
        problems += [f"{name}: small text {t}" for t in page.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)]
        problems += [f"{name}: overlap {t}" for t in page.evaluate(OVERLAP_JS)]
        cells[name] = page.evaluate(SMALLEST_JS, parts["board"])
        if parts["own"] != parts["board"]:
            cells[f"{name}, own tiles"] = page.evaluate(SMALLEST_JS, parts["own"])
        if name == "phone":
            board = page.evaluate(RECT_JS, parts["board"])
            assert board["right"] - board["left"] >= size["width"] - 40, (
                f"{notebook} {lang}: the board does not use the phone's width: {board}")
    if "halma" in notebook or "chinese" in notebook:
        page.locator(".mg-zoom-in").click()
        page.wait_for_selector(parts["board"] + ".mg-zoomed")
        wait_layout(page)
        cells["phone, zoomed once"] = page.evaluate(SMALLEST_JS, parts["board"])
        touch = page.locator(".mg-help .mg-touch-only")
        assert touch.is_visible() and not page.locator(".mg-help .mg-mouse-only").is_visible()
        page.locator(".mg-zoom-out").click()
    page.set_viewport_size(PROJECTOR)
    wait_layout(page)
    # Halma's squares on the phone are reported unzoomed, and must be big enough zoomed.
    checked = {k: v for k, v in cells.items()
               if not (k == "phone" and "phone, zoomed once" in cells)}
    REPORT.append(f"{notebook:24} {lang}  smallest cell (CSS px): "
                  + ", ".join(f"{k} {v:.1f}" for k, v in cells.items()))
    for where, size in checked.items():
        assert size is not None and size >= MIN_CELL_PX, (
            f"{notebook} {lang}: cells of {size:.1f} px on the {where} (minimum {MIN_CELL_PX})")
    # What a reader meets: the game, then the rules panel open.
    if lang != "en":
        problems += [f"game: English text {t!r}" for t in english_left(page, lang)]
    problems += [f"axe, game: {v}" for v in axe_violations(page)]
    problems += [f"game: empty tooltip {t}" for t in page.evaluate(NULL_TIPS_JS)]
    page.locator(".mg-controls .mg-howto-button").click()
    page.wait_for_selector(".mg-howto .mg-howto-part")
    assert page.locator(".mg-howto .mg-howto-part").count() >= 4
    assert page.locator(".mg-howto svg").count() >= 1  # the picture drawn by the game's view
    if lang != "en":
        problems += [f"How to play: English text {t!r}" for t in english_left(page, lang)]
    problems += [f"axe, How to play: {v}" for v in axe_violations(page)]
    assert problems == [], "\n".join(problems)
    assert page.mg_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_mosaic_page_fits_speaks_the_language_and_passes_axe(
        page: Any, voila_url: str, lang: str) -> None:
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{voila_url}/voila/render/mosaic.ipynb?lang={lang}", wait_until="domcontentloaded")
    wait_rendered(page, ".mg-mosaic-board .mathgames-board")
    problems: list[str] = []
    for name, size in (("projector", PROJECTOR), ("phone", PHONE)):
        page.set_viewport_size(size)
        wait_layout(page)
        problems += [f"{name}: cut label {t}" for t in page.evaluate(PAGE_CUT_JS)]
        problems += [f"{name}: small text {t}" for t in page.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)]
        problems += [f"{name}: overlap {t}" for t in page.evaluate(OVERLAP_JS)]
    if lang != "en":
        problems += [f"English text {t!r}" for t in english_left(page, lang)]
    problems += [f"axe: {v}" for v in axe_violations(page)]
    assert problems == [], "\n".join(problems)
    assert page.mg_errors == []


def test_landing_page_passes_axe(page: Any, voila_url: str) -> None:
    page.goto(f"{voila_url}/voila/render/index.ipynb?lang=pl", wait_until="domcontentloaded")
    wait_rendered(page, ".mg-landing .mg-card")
    assert axe_violations(page) == []
    assert english_left(page, "pl") == []


@pytest.mark.parametrize(("notebook", "shown"), [
    ("explore/triomino_combinatorics.ipynb", ".noUi-handle"),  # its sliders, named
    ("explore/matematiko_probabilities.ipynb", ".mg-header"),
    ("explore/board_geometry.ipynb", ".widget-play button"),  # its Play buttons, named
    ("board_demo.ipynb", ".mathgames-board")])
def test_lesson_and_demo_pages_pass_axe(page: Any, voila_url: str, notebook: str,
                                        shown: str) -> None:
    page.goto(f"{voila_url}/voila/render/{notebook}?lang=en", wait_until="domcontentloaded")
    wait_rendered(page, ".jp-OutputArea-output")
    wait_outputs(page)
    # a lesson's answers wait for the class's guess: ask for them all, so that axe sees them
    for button in page.locator("button.mg-lesson-show").all():
        button.click()
    wait_rendered(page, shown)
    assert axe_violations(page) == []


def teardown_module() -> None:
    if REPORT:
        ARTIFACTS.mkdir(exist_ok=True)
        text = (f"Smallest clickable cell per board (minimum {MIN_CELL_PX} CSS px):\n"
                + "\n".join(REPORT) + "\n")
        (ARTIFACTS / "layout-report.txt").write_text(text)
        print("\n" + text)
