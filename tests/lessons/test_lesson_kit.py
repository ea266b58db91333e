"""The lesson building blocks (mathgames.lessons.kit) and the lessons' own messages.

Numbers follow each language's format (Babel), bad input gets a translated message that
names the bad part, a prediction records the guess before it shows the answer, answers stay
hidden until asked for, and a simulation's frequencies approach the exact values.
"""

from __future__ import annotations

import ast
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from mathgames.core.i18n import set_language
from mathgames.core.po import parse_po
from mathgames.lessons import kit as lesson

ROOT = Path(__file__).resolve().parents[2]
EXPLORE = ROOT / "notebooks" / "explore"
LOCALE = ROOT / "mathgames" / "locale"


@pytest.fixture
def language():
    """Switch the kernel language for one test, then restore it."""
    previous = set_language("en")
    yield set_language
    set_language(previous)


@pytest.mark.parametrize(("code", "thousands", "share"), [
    ("en", "1,820", "0.9150"),
    ("pl", "1820", "0,9150"),
    ("cs", "1\u00a0820", "0,9150"),
    ("ru", "1820", "0,9150"),
])
def test_numbers_are_written_in_each_language_format(language, code, thousands, share):
    language(code)
    assert lesson.number(1820) == thousands
    assert lesson.number(20000) == {"en": "20,000"}.get(code, "20\u00a0000")
    assert lesson.decimal(1820.5, 1) == thousands + {"en": ".5"}.get(code, ",5")
    assert lesson.decimal(Fraction(7565, 8268), 4) == share
    assert lesson.exact(Fraction(7565, 8268)) == f"7565/8268 ≈ {share}"


def test_a_probability_near_one_is_never_shown_as_one(language):
    assert lesson.exact(Fraction(97907, 97911)) == "1 − 4/97911 ≈ 0.99996"
    language("pl")
    assert lesson.exact(Fraction(97907, 97911)) == "1 − 4/97911 ≈ 0,99996"


@pytest.mark.parametrize(("code", "words"), [
    ("en", "is not a whole number"),
    ("pl", "nie jest liczbą całkowitą"),
    ("cs", "není celé číslo"),
    ("ru", "не целое число"),
])
def test_bad_input_gets_a_translated_message_naming_the_bad_part(language, code, words):
    language(code)
    with pytest.raises(lesson.InputError) as caught:
        lesson.parse_numbers("7 x 99", 1, 13)
    assert words in str(caught.value) and "x" in str(caught.value)
    assert "invalid literal" not in str(caught.value)
    with pytest.raises(lesson.InputError, match="99"):
        lesson.parse_numbers("7 99", 1, 13)


def test_a_long_paste_is_quoted_short() -> None:
    with pytest.raises(lesson.InputError) as caught:
        lesson.parse_numbers("7 " + "x" * 500, 1, 13)
    assert "“" + "x" * 19 + "…”" in str(caught.value) and "x" * 20 not in str(caught.value)
    with pytest.raises(lesson.InputError) as caught:
        lesson.parse_numbers("9" * 100, 1, 13)
    assert str(caught.value).startswith("9" * 39 + "… is not allowed here")
    question = lesson.Predict("How many tiles?", 56)
    question.guess_box.value = "5" * 5000
    question.check()
    assert question.guesses == ["5" * 5000]  # recorded whole, shown short
    assert "5" * 39 + "…" in question.result.value and "5" * 40 not in question.result.value


def test_plural_messages_follow_each_language(language):
    language("ru")
    with pytest.raises(lesson.InputError, match="не больше 5 чисел"):
        lesson.parse_numbers("1 2 3 4 5 6", 1, 13, most=5)
    language("pl")
    with pytest.raises(lesson.InputError, match="najwyżej 2 liczby"):
        lesson.parse_numbers("1 2 3", 1, 13, most=2)


def test_a_prediction_is_recorded_before_the_answer_is_shown(language):
    question = lesson.Predict("How many tiles?", 56)
    assert question.result.value == ""
    question.guess_box.value = "lots"
    question.check()
    assert question.guesses == [] and "not a number" in question.result.value
    question.guess_box.value = "50"
    question.check()
    assert question.guesses == ["50"]
    assert "50" in question.result.value and "56" in question.result.value


def test_an_answer_is_hidden_until_revealed():
    box = lesson.reveal("<b>forty-two</b>")
    button, answer = box.children
    assert answer.layout.display == "none"
    button.click()
    assert answer.layout.display == ""
    button.click()
    assert answer.layout.display == "none"


def test_simulated_frequencies_approach_the_exact_values():
    trials = lesson.Trials(lambda rng: rng.randrange(6) == 0, [True, False], ["six", "other"],
                           exact={True: 1 / 6, False: 5 / 6}, seed=3)
    trials.trials.value = 200
    trials.run()
    few = abs(trials.frequencies()[True] - 1 / 6)
    trials.trials.value = 20_000
    trials.run()
    assert sum(trials.counts.values()) == 20_000 and trials.progress.value == 20_000
    many = abs(trials.frequencies()[True] - 1 / 6)
    assert many < 0.01 and many < few + 0.01
    assert trials.bars.y[1][0] == pytest.approx(1 / 6)


def lesson_messages() -> set[tuple[str, str | None]]:
    """Every literal ``_("...")`` and ``_.ngettext(...)`` in the lessons' code cells."""
    found = set()
    for path in sorted(EXPLORE.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            for node in ast.walk(ast.parse("".join(cell["source"]))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Name) and func.id == "_":
                    key = (node.args[0].value, None)
                elif (isinstance(func, ast.Attribute) and func.attr == "ngettext"
                      and isinstance(func.value, ast.Name) and func.value.id == "_"):
                    key = (node.args[0].value, node.args[1].value)
                else:
                    continue
                assert all(isinstance(k, str) for k in key if k is not None), path.name
                found.add(key)
    return found


@pytest.mark.parametrize("code", ["pl", "cs", "ru"])
def test_every_message_of_the_lessons_is_translated(code):
    messages = lesson_messages()
    assert len(messages) > 100
    po = LOCALE / code / "LC_MESSAGES" / "lessons.po"
    entries = parse_po(po.read_text(encoding="utf-8"), str(po))
    by_id = {msgid: forms for (msgid, _plural), forms in entries.items()}
    missing = sorted(m for m, _ in messages if m not in by_id or not all(by_id[m]))
    assert not missing, f"lessons.po ({code}) lacks {missing[:5]}"


def test_the_lesson_data_is_found_from_a_language_copy(tmp_path):
    copy_folder = EXPLORE / "pl"
    data = lesson.lesson_data("triomino_combinatorics", where=copy_folder)
    assert data["deals"] == 20_000
    with pytest.raises(FileNotFoundError, match=r"precompute\.py"):
        lesson.lesson_data("triomino_combinatorics", where=tmp_path)


def test_the_game_link_carries_the_language(language):
    language("cs")
    link = lesson.game_link("triomino.ipynb", "Hrát", "explore/triomino_combinatorics.ipynb")
    assert 'href="../../triomino.ipynb?lang=cs"' in link.value
    teacher = lesson.teacher_link("explore/board_geometry.ipynb")
    assert 'href="board_geometry_teacher.ipynb?lang=cs"' in teacher.value
    random.seed(0)
