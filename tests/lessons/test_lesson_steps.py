"""A lesson unfolds in steps: each part waits for the question before it.

Without a browser: every cell after a lesson's first "predict first" cell (``predict-<key>``)
carries the tag ``answer-<key>`` of the last such cell above it, so the hold rule hides it
until that question is answered (a driving question's answer cells carry its tag as well).

In Chromium: a lesson opens at its first question; answering it shows the next part and
no more; a reload comes back at the step reached; "Start again" hides it all again; the
teacher's "Show everything" opens the whole lesson (in another language too) until the
lesson's own "Hide the answers again".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

EXPLORE = Path(__file__).resolve().parents[2] / "notebooks" / "explore"
LESSONS = sorted(p.stem for p in EXPLORE.glob("*.ipynb") if not p.stem.endswith("_teacher"))


def cells(lesson: str) -> list[dict]:
    return json.loads((EXPLORE / f"{lesson}.ipynb").read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_part_after_a_question_waits_for_it(lesson):
    step = None
    seen = []
    for cell in cells(lesson):
        tags = cell.get("metadata", {}).get("tags", [])
        if step is not None:
            assert f"answer-{step}" in tags, (cell.get("id"), step, tags)
        if (cell.get("id") or "").startswith("predict-"):
            found = re.search(r'reveals="(\w+)"', source(cell))
            assert found, f"{cell.get('id')}: a question cell without reveals"
            step = found.group(1)
            seen.append(step)
    assert seen, f"{lesson} has no predict-first question"


def test_each_lesson_draws_its_steps_and_each_teacher_page_its_switch():
    for lesson in LESSONS:
        links = next(source(c) for c in cells(lesson) if c.get("id") == "links")
        assert "display(hold_answers())" in links and "lesson_steps(LESSON)" in links
        teacher = next(source(c) for c in cells(f"{lesson}_teacher") if c.get("id") == "links")
        assert f'show_everything("explore/{lesson}.ipynb")' in teacher


def visible(page, selector: str) -> bool:
    found = page.locator(selector)
    return found.count() > 0 and found.first.is_visible()


@pytest.mark.browser
def test_a_lesson_unfolds_comes_back_after_a_reload_and_opens_for_the_teacher(notebook_page):
    page = notebook_page("explore/triomino_combinatorics.ipynb", wait_for=".mg-lesson-predict")
    assert not visible(page, ".celltag_answer-count")
    assert not visible(page, ".mg-lesson-predict-burnside")
    assert "The three kinds together" not in page.locator("body").inner_text()
    box = page.locator(".mg-lesson-predict-count .mg-lesson-guess input")
    box.fill("50")
    box.press("Enter")
    page.locator(".mg-lesson-predict-burnside").wait_for(state="visible")
    assert visible(page, ".celltag_answer-count")
    assert not visible(page, ".celltag_answer-burnside")
    assert not visible(page, ".mg-lesson-predict-triple")
    # a reload comes back at the step reached, with the guess
    page.reload(wait_until="domcontentloaded")
    page.locator(".mg-lesson-predict-burnside").wait_for(state="visible")
    assert "Your guess: 50" in page.locator(".mg-lesson-predict-count").inner_text()
    assert not visible(page, ".celltag_answer-burnside")
    # start again: the lesson is back at its first question
    page.locator("button.mg-lesson-restart").click()
    page.locator(".mg-lesson-predict-burnside").wait_for(state="hidden")
    assert not visible(page, ".celltag_answer-count")
    # the teacher opens everything on the teacher's page (English), then the Polish lesson
    page = notebook_page("explore/triomino_combinatorics_teacher.ipynb",
                         wait_for=".mg-lesson-show-everything")
    page.locator(".mg-lesson-show-everything").click()
    page.wait_for_function("localStorage.getItem("
                           "'mathgames-lesson-open:explore/triomino_combinatorics') === '1'")
    page = notebook_page("explore/pl/triomino_combinatorics.ipynb", lang="pl",
                         wait_for=".mg-lesson-predict")
    page.locator(".celltag_answer-edges").first.wait_for(state="visible")
    assert page.locator(".mg-lesson-all-open").first.is_visible()
    page.locator("button.mg-lesson-close-all").click()
    page.locator(".celltag_answer-edges").first.wait_for(state="hidden")
    assert page.mg_errors == []
