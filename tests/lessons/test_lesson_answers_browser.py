"""A lesson's answers wait for the class: nothing a "predict first" asks is on the screen
before the guess, and everything that answers it is there after.

The answers are listed beside the notebooks, in ``notebooks/explore/answers.json`` (for each
lesson and question key, the texts that state the answer in each language). One visit per
lesson and language reads the page's whole visible text (``innerText``: hidden cells, closed
``<details>`` and unanswered parts are not in it) and the printable worksheet: before a
question is answered none of its texts is there; the class then answers the questions in
the order the lesson shows them (typing a guess or picking a choice), and after each answer
its first text appears while the later questions' answers stay out of sight. At the end
every text of every answer is on the page, and no chart was drawn with a negative size.

The same visit is the phone's: the lesson opens at 390x844 and, once the whole lesson is on
the page, no label is cut, no box scrolls sideways, no output is drawn over another, a
translated page shows no English text and axe-core finds no serious accessibility problem.
"""

from __future__ import annotations

import base64
import html
import json
import re
import time
from pathlib import Path

import pytest

from tests.lessons.conftest import answer_up_to
from tests.page_checks import (
    OVERLAP_JS,
    PAGE_CUT_JS,
    PHONE,
    axe_violations,
    english_left,
    wait_outputs,
)

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "pl", "cs", "ru")
ANSWER_LIST = Path(__file__).resolve().parents[2] / "notebooks" / "explore" / "answers.json"
ANSWERS = {lesson: keys for lesson, keys in json.loads(ANSWER_LIST.read_text("utf-8")).items()
           if not lesson.startswith("_")}
#: a number as the pages write it: 56, 0.9150, 1,820, 1 820 (a no-break space), 86,89
NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*")


def texts_of(lesson: str, key: str, language: str) -> list[str]:
    """The texts that state the answer to question ``key`` of ``lesson`` in ``language``."""
    entry = ANSWERS[lesson][key]
    return [*entry.get("*", []), *entry.get(language, [])]


def shows(text: str, page_text: str) -> bool:
    """Whether ``page_text`` states ``text``: a number as a whole number, else as written."""
    if NUMBER.fullmatch(text):
        return text in NUMBER.findall(page_text)
    return text in page_text


def visible_text(page) -> str:
    """The page's text as the class sees it (innerText skips hidden elements)."""
    return page.locator("body").inner_text()


def worksheet_text(page) -> str:
    """The text of the lesson's printable worksheet (the link's data address)."""
    address = page.locator("a.mg-lesson-worksheet").first.get_attribute("href")
    prefix = "data:text/html;charset=utf-8;base64,"
    assert address.startswith(prefix)
    page_html = base64.b64decode(address[len(prefix):]).decode("utf-8")
    body = re.sub(r"<head>.*?</head>", " ", page_html, flags=re.S)   # the print style aside
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


#: Boxes inside the page that scroll sideways (a chart or a field wider than the screen).
SIDEWAYS_BOXES_JS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output, '
    + '.jp-OutputArea-output *'))
  .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
  .filter(e => e.scrollWidth > e.clientWidth + 0.5)
  .map(e => (e.closest('.jp-Cell')?.id || '?') + ` (${e.scrollWidth} > ${e.clientWidth})`)"""
#: The heading of a translated lesson (its header names the page in the page's language).
HEADINGS = {("board_geometry", "pl"): "Geometria plansz: halma i trylma",
            ("board_geometry", "cs"): "Geometrie hracích desek: Halma a čínská dáma",
            ("board_geometry", "ru"): "Геометрия досок: Хальма и китайские шашки"}


def phone_problems(page, language: str) -> list[str]:
    """What is wrong with the lesson on the phone: cut labels, boxes that scroll sideways,
    outputs drawn over each other, English left in a translation, axe's findings."""
    wait_outputs(page)
    problems = [f"cut label {t}" for t in page.evaluate(PAGE_CUT_JS)]
    problems += [f"scrolls sideways: {t}" for t in page.evaluate(SIDEWAYS_BOXES_JS)]
    problems += [f"overlap {t}" for t in page.evaluate(OVERLAP_JS, ".jp-OutputArea-output")]
    if language != "en":
        problems += [f"English text {t!r}" for t in english_left(page, language)]
    return problems + [f"axe: {v}" for v in axe_violations(page)]


#: how many cells tagged answer-<key> are visible, for each key (one call for all)
VISIBLE_CELLS = """keys => keys.map(key => [...document.querySelectorAll('.celltag_answer-' + key)]
    .filter(cell => cell.getClientRects().length && cell.getBoundingClientRect().height > 0
                    && getComputedStyle(cell).visibility !== 'hidden').length)"""


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


def wait_until_shown(page, text: str, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if shows(text, visible_text(page)):
            return True
        page.wait_for_timeout(200)
    return False


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", sorted(ANSWERS))
def test_no_answer_is_shown_before_the_guess(page, notebook_page, lesson, language):
    drawing_errors: list[str] = []   # e.g. a chart drawn with a negative width while hidden
    page.on("console", lambda message: message.type == "error" and "negative" in message.text
            and drawing_errors.append(message.text))
    name = f"explore/{lesson}.ipynb" if language == "en" else f"explore/{language}/{lesson}.ipynb"
    page.set_viewport_size(PHONE)  # opened on the phone: the charts take its width
    page = notebook_page(name, lang=language, wait_for=".mg-lesson-predict")
    assert page.locator(".mg-lang.mg-current").first.get_attribute("data-lang") == language
    if (lesson, language) in HEADINGS:
        assert page.get_by_text(HEADINGS[lesson, language]).count() >= 1
    keys = list(ANSWERS[lesson])
    sheet = worksheet_text(page)
    for key in keys:
        for text in texts_of(lesson, key, language):
            assert not shows(text, sheet), f"{lesson} ({language}): worksheet states {text!r}"
    answered: list[str] = []
    while True:
        text = visible_text(page)
        for key in keys:
            if key in answered:
                continue
            for answer in texts_of(lesson, key, language):
                assert not shows(answer, text), (
                    f"{lesson} ({language}): {answer!r} ({key}) on the screen before its "
                    f"question is answered (answered: {answered})")
        waiting_keys = [key for key in keys if key not in answered]
        shown_cells = page.evaluate(VISIBLE_CELLS, waiting_keys)
        assert not any(shown_cells), f"{lesson} ({language}): cells of {waiting_keys} shown"
        waiting = page.locator(".mg-lesson-predict:not(.mg-lesson-answered)")
        if not waiting.count():
            break
        waiting.first.wait_for(state="visible")
        key = next(c[len("mg-lesson-predict-"):]
                   for c in waiting.first.get_attribute("class").split()
                   if c.startswith("mg-lesson-predict-"))
        predict = page.locator(f".mg-lesson-predict-{key}")   # not the next one once answered
        guess(predict)
        page.wait_for_function("e => e.classList.contains('mg-lesson-answered')",
                               arg=predict.element_handle())
        answered.append(key)
        first = texts_of(lesson, key, language)[0]
        if key in ANSWERS[lesson] and not wait_until_shown(page, first, 5):
            # a driving question's answer at length waits for the part it belongs to
            assert key in ("crossing", "hexiamonds"), (
                f"{lesson} ({language}): {first!r} ({key}) not shown after the guess; the "
                f"prediction says {predict.inner_text()!r}")
    assert sorted(answered) == sorted(keys), "the answer list and the lesson's questions differ"
    text = visible_text(page)
    for key in keys:
        for answer in texts_of(lesson, key, language):
            assert shows(answer, text), f"{lesson} ({language}): {answer!r} ({key}) never shown"
    problems = phone_problems(page, language)
    assert problems == [], f"{lesson} ({language}) on a phone:\n" + "\n".join(problems)
    assert page.mg_errors == []
    assert drawing_errors == []


def test_the_class_may_ask_for_the_answer_without_guessing(notebook_page):
    page = notebook_page("explore/triomino_combinatorics.ipynb", wait_for=".mg-lesson-predict")
    answer_up_to(page, "burnside")   # the triple question is the next part
    predict = page.locator(".mg-lesson-predict-triple")
    assert "7565/8268" not in visible_text(page)
    predict.locator("button.mg-lesson-show").click()
    page.wait_for_function("document.body.innerText.includes('7565/8268')")
    assert "The answer:" in predict.locator(".mg-lesson-prediction").inner_text()
    assert "0-1-3" not in visible_text(page)   # the later answers still wait
    assert page.mg_errors == []


@pytest.mark.parametrize("language", ["pl", "ru"])
def test_chart_axes_use_the_decimal_comma(notebook_page, language):
    """The triple chart's probability axis reads 0,20 ... 1,00, not d3's English 0.20."""
    page = notebook_page(f"explore/{language}/triomino_combinatorics.ipynb", lang=language,
                         wait_for=".mg-lesson-predict")
    answer_up_to(page, "triple")
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
