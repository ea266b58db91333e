"""A lesson's answers wait for the class: nothing a "predict first" asks is on the screen
before the guess, and everything that answers it is there after.

Each lesson opens in Voilà in every language. For each prediction the test knows a text of
its answer (written the same way in every language: fractions, moves, formulas) and the cells
that give the answer at length (tagged ``answer-<key>``). Before the guess the text is not in
the page's visible text and none of those cells is visible; after a guess (typed, or picked
from the choices) the text and the cells appear, while the other predictions' answers stay
hidden.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "pl", "cs", "ru")

#: lesson -> {prediction key: a text of its answer, the same in every language, or one per
#: language where the answer is a printed sentence}
ANSWERS = {
    "triomino_combinatorics": {
        "count": "C(8, 3) = 56",
        "burnside": {"en": "216 colourings, 76", "pl": "216, z dokładnością do obrotu: 76",
                     "cs": "216, až na otočení: 76", "ru": "216, с точностью до поворота: 76"},
        "triple": "7565/8268",
        "edges": "0-1-3",
    },
    "matematiko_probabilities": {
        "rare": "192/54145",
        "expectation": "2822740/32487",
        "bots": {"en": "356.25", "pl": "356,25", "cs": "356,25", "ru": "356,25"},
        "chances": "103/115",
        "best": "12, 10, 9, 13, 11",
    },
    "board_geometry": {
        "crossing": "a1-c3-g5-e7-c9",
        "holes": "2 × 91 − 61",
        "king": "a1 → p16: 15",
        "bound": "225",
    },
    "mosaics": {
        "hexiamonds": "A006534",
        "tetriamonds": {"en": "triangles: 4, different figures: 3",
                        "pl": "trójkątów: 4, różnych figur: 3",
                        "cs": "trojúhelníků: 4, různých obrazců: 3",
                        "ru": "треугольников: 4, разных фигур: 3"},
        "tiles": {"en": "turning: 76", "pl": "obrotu: 76", "cs": "otočení: 76",
                  "ru": "поворота: 76"},
        "perimeter": "112",
    },
}


def visible_text(page) -> str:
    """The page's text as the class sees it (innerText skips hidden elements)."""
    return page.locator("body").inner_text()


def guess(predict) -> None:
    """Answer a prediction as a student would: type a number, or pick the first choice."""
    choices = predict.locator("select")
    if choices.count():
        choices.first.select_option(index=1)
        predict.locator("button.mg-lesson-check").click()
    else:
        box = predict.locator(".mg-lesson-guess input")
        box.fill("10")
        box.press("Enter")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", sorted(ANSWERS))
def test_no_answer_is_shown_before_the_guess(notebook_page, lesson, language):
    name = f"explore/{lesson}.ipynb" if language == "en" else f"explore/{language}/{lesson}.ipynb"
    page = notebook_page(name, lang=language, wait_for=".mg-lesson-predict")
    answers = {key: text if isinstance(text, str) else text[language]
               for key, text in ANSWERS[lesson].items()}
    page.wait_for_function(
        f"document.querySelectorAll('.mg-lesson-predict').length >= {len(answers)}")
    worksheet = page.locator("a.mg-lesson-worksheet").first.get_attribute("href")
    assert worksheet.startswith("data:text/html;charset=utf-8;base64,")
    text = visible_text(page)
    for key, answer in answers.items():
        cells = page.locator(f".celltag_answer-{key}")
        assert cells.count() >= 1, f"no cell answers the prediction {key!r}"
        assert all(not cells.nth(i).is_visible() for i in range(cells.count())), key
        assert answer not in text, f"{lesson} ({language}): {answer!r} shown before the guess"
    for done, (key, answer) in enumerate(answers.items()):
        predict = page.locator(f".mg-lesson-predict-{key}")
        guess(predict)
        try:
            page.wait_for_function(f"document.body.innerText.includes({answer!r})")
        except PlaywrightTimeout:
            raise AssertionError(f"{lesson} ({language}): {answer!r} ({key}) not shown after "
                                 f"the guess; the prediction says "
                                 f"{predict.inner_text()!r}") from None
        cells = page.locator(f".celltag_answer-{key}")
        assert all(cells.nth(i).is_visible() for i in range(cells.count())), key
        text = visible_text(page)
        for later, hidden in list(answers.items())[done + 1:]:
            assert hidden not in text, f"{hidden!r} ({later}) shown after guessing {key!r}"
    assert page.mg_errors == []


def test_the_class_may_ask_for_the_answer_without_guessing(notebook_page):
    page = notebook_page("explore/triomino_combinatorics.ipynb", wait_for=".mg-lesson-predict")
    predict = page.locator(".mg-lesson-predict-triple")
    assert "7565/8268" not in visible_text(page)
    predict.locator("button.mg-lesson-show").click()
    page.wait_for_function("document.body.innerText.includes('7565/8268')")
    assert "The answer:" in predict.locator(".mg-lesson-prediction").inner_text()
    assert "C(8, 3) = 56" not in visible_text(page)   # the other answers still wait
    assert page.mg_errors == []


@pytest.mark.parametrize("language", ["pl", "ru"])
def test_chart_axes_use_the_decimal_comma(notebook_page, language):
    """The triple chart's probability axis reads 0,20 ... 1,00, not d3's English 0.20."""
    page = notebook_page(f"explore/{language}/triomino_combinatorics.ipynb", lang=language,
                         wait_for=".mg-lesson-edges")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.bqplot.figure svg text')]"
        ".some(t => /^0,[0-9]{2}$/.test(t.textContent.trim()))")
    shown = page.evaluate(
        "() => [...document.querySelectorAll('.bqplot.figure svg text')]"
        ".filter(t => getComputedStyle(t).fillOpacity !== '0' && t.getBBox().width > 0)"
        ".map(t => t.textContent.trim())")
    assert "0,40" in shown and "1,00" in shown, shown
    assert not [text for text in shown if re.fullmatch(r"\d+\.\d+", text)], shown
    assert "20%" in shown if language == "pl" else "20\u00a0%" in shown   # Babel's percent
    assert page.mg_errors == []
