"""Each lesson's printable worksheet, rendered by Chromium as a PDF, in every language.

The worksheet is made from the lesson's own text (warm-up, questions, exit question) in the
notebook of each language: its tasks are all there, the hidden answers are not, every task
has a box to write in, and the print style gives A4 pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mathgames.core.i18n import set_language
from mathgames.lessons.kit import worksheet_html

pytestmark = pytest.mark.browser

EXPLORE = Path(__file__).resolve().parents[2] / "notebooks" / "explore"
LESSONS = ("triomino_combinatorics", "matematiko_probabilities", "board_geometry", "mosaics")


def cells(path: Path) -> dict[str, str]:
    return {c.id: c.source for c in nbformat.read(path, as_version=4).cells}


@pytest.mark.parametrize("language", ["en", "pl", "cs", "ru"])
@pytest.mark.parametrize("lesson", LESSONS)
def test_the_worksheet_prints_every_task_without_the_answers(page, lesson, language):
    path = (EXPLORE if language == "en" else EXPLORE / language) / f"{lesson}.ipynb"
    source = cells(path)
    previous = set_language(language)
    try:
        sheet = worksheet_html(path)
    finally:
        set_language(previous)
    page.set_content(sheet)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 1
    text = page.locator("body").inner_text()
    questions = re.findall(r"^\d+\. (.{12})", source["questions"], flags=re.MULTILINE)
    assert len(questions) >= 5
    for start in questions:
        assert start in text, f"{lesson} ({language}): question {start!r} missing"
    exit_task = source["exit"].split("\n\n")[1][:30]
    assert exit_task in text
    for answer in re.findall(r"<details><summary>[^<]*</summary>(.{20})", "".join(
            source[cell] for cell in ("warm-up", "questions", "exit"))):
        assert answer not in text, f"{lesson} ({language}): an answer is printed: {answer!r}"
    boxes = page.locator(".mg-space")
    assert boxes.count() == len(questions) + 2        # the warm-up and the exit question too
    assert all(boxes.nth(i).bounding_box()["height"] > 80 for i in range(boxes.count()))
