"""Each teacher's page gives a core route that fits one 45-minute lesson, in every language.

The route is the first table of the page's ``teacher-route`` cell: one row per step, its
minutes written ``a–b``. The steps must follow each other without a gap or an overlap, from
0 to 45; everything else the lesson offers is listed after the table as optional or as a
follow-up lesson. The lesson's own warm-up and exit question exist in every language.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import nbformat
import pytest

EXPLORE = Path(__file__).resolve().parents[2] / "notebooks" / "explore"
LESSONS = ("triomino_combinatorics", "matematiko_probabilities", "board_geometry", "mosaics")
LANGUAGES = ("en", "pl", "cs", "ru")
ROW = re.compile(r"^\|\s*(\d+)\s*[–-]\s*(\d+)\s*\|", re.MULTILINE)


def notebook(name: str, language: str) -> nbformat.NotebookNode:
    folder = EXPLORE if language == "en" else EXPLORE / language
    return nbformat.read(folder / f"{name}.ipynb", as_version=4)


def cell(book: nbformat.NotebookNode, cell_id: str) -> str:
    return next(c.source for c in book.cells if c.id == cell_id)


def core_route(text: str) -> list[tuple[int, int]]:
    """The (start, end) minutes of the first table's rows.

    >>> core_route("| 0–5 | a |\\n| 5–45 | b |")
    [(0, 5), (5, 45)]
    """
    return [(int(a), int(b)) for a, b in ROW.findall(text)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSONS)
def test_the_core_route_adds_up_to_45_minutes(lesson, language):
    text = cell(notebook(f"{lesson}_teacher", language), "teacher-route")
    steps = core_route(text)
    assert len(steps) >= 4, f"{lesson} ({language}): no route table"
    assert steps[0][0] == 0
    for (_start, end), (start, _end) in pairwise(steps):
        assert start == end, f"{lesson} ({language}): a gap or overlap at minute {end}"
    assert all(start < end for start, end in steps)
    assert sum(end - start for start, end in steps) == 45
    assert steps[-1][1] == 45
    after_table = text.rsplit("|", 1)[1]
    assert len(after_table.strip()) > 40, f"{lesson} ({language}): nothing marked optional"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_has_a_warm_up_and_an_exit_question(lesson, language):
    book = notebook(lesson, language)
    for cell_id in ("warm-up", "exit"):
        text = cell(book, cell_id)
        assert "<details>" in text, f"{lesson} ({language}): {cell_id} has no hidden answer"
    ids = [c.id for c in book.cells]
    assert ids.index("warm-up") < ids.index("questions") < ids.index("exit")
