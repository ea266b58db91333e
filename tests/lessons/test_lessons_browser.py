"""The lessons render in Voila without errors and their controls respond.

nbval already checks every printed result; these tests check what only a browser
shows: the notebooks run in Voila, the widgets appear, and moving a control
changes what the chart or board shows. One copy per language checks the header.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_triomino_lesson_slider_changes_the_exact_probability(notebook_page):
    page = notebook_page("explore/triomino_combinatorics.ipynb", wait_for=".mg-lesson-edges")
    readout = page.locator(".mg-lesson-readout").first
    assert "9796/9911" in readout.inner_text()  # 4 players, the default
    page.locator(".widget-slider .noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "document.querySelector('.mg-lesson-readout').innerText.includes('16103/16218')")
    assert page.mg_errors == []


def test_matematiko_lesson_chances_panel_answers_a_new_line(notebook_page):
    page = notebook_page("explore/matematiko_probabilities.ipynb", wait_for=".mg-lesson-answer")
    assert "1/23" in page.locator(".mg-lesson-answer").inner_text()  # 7 7 7 after 7 7 7 3 9 12
    boxes = page.locator(".mg-lesson-input input[type=text]")
    boxes.nth(0).fill("1 1 1 13")
    boxes.nth(0).press("Enter")
    boxes.nth(1).fill("1 1 1 13 5 6")
    boxes.nth(1).press("Enter")
    page.wait_for_function(
        "document.querySelector('.mg-lesson-answer').innerText.includes('3/46')")
    assert page.mg_errors == []


def test_geometry_lesson_replays_the_crossing_move_by_move(notebook_page):
    page = notebook_page("explore/board_geometry.ipynb", wait_for=".mg-lesson-next")
    board = page.locator(".mathgames-board svg").first
    start = board.inner_html()
    for _ in range(2):
        page.locator(".mg-lesson-next button, button.mg-lesson-next").first.click()
    page.wait_for_function(
        "document.querySelector('.mg-lesson-caption').innerText.includes('2. a2-a4-f6')")
    assert board.inner_html() != start
    page.locator(".mg-lesson-previous button, button.mg-lesson-previous").first.click()
    page.wait_for_function(
        "document.querySelector('.mg-lesson-caption').innerText.includes('1. a4-f5')")
    assert page.mg_errors == []


@pytest.mark.parametrize(("language", "heading"), [
    ("pl", "Geometria plansz: halma i trylma"),
    ("cs", "Geometrie hracích desek: Halma a čínská dáma"),
    ("ru", "Геометрия досок: Хальма и китайские шашки"),
])
def test_language_copies_are_translated_with_their_header(notebook_page, language, heading):
    page = notebook_page(f"explore/{language}/board_geometry.ipynb", lang=language,
                         wait_for=".mathgames-board")
    assert page.get_by_text(heading).count() >= 1
    current = page.locator(".mg-lang.mg-current").first
    assert current.get_attribute("data-lang") == language
    assert page.mg_errors == []
