"""The lesson notebooks' language copies are up to date and fully translated.

The English notebooks in ``notebooks/explore`` are the source; ``translate.py``
builds the Polish, Czech and Russian copies from them and the translation files,
and executes each copy in its own language. These tests rebuild every copy in
memory and compare it (outputs aside) with the file on disk, so a copy that
someone edited by hand, or an English change that was never regenerated, fails
here; nbval then runs every copy and checks its stored, translated outputs.
"""

from __future__ import annotations

import importlib.util
import re
from decimal import Decimal
from pathlib import Path

import nbformat
import pytest
from babel.numbers import get_decimal_symbol, get_group_symbol

EXPLORE = Path(__file__).resolve().parents[2] / "notebooks" / "explore"


def _load_translate():
    spec = importlib.util.spec_from_file_location("lessons_translate", EXPLORE / "translate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


translate = _load_translate()
PAIRS = [(lesson, language) for lesson in translate.LESSONS for language in translate.LANGUAGES]
LOCALES = {"en": "en", "pl": "pl_PL", "cs": "cs_CZ", "ru": "ru_RU"}


def values(text: str, language: str) -> set[str]:
    """The fractions, decimals and digit-grouped numbers of a text, read in a language's
    number format (Babel's symbols) and written out plainly, so that "0,9150" in Polish
    and "0.9150" in English are the same value, and so are "1 820" and "1,820"."""
    point = re.escape(get_decimal_symbol(LOCALES[language]))
    group = get_group_symbol(LOCALES[language])
    groups = "[" + re.escape(group) + ("\u00a0\u202f" if group in "\u00a0\u202f " else "") + "]"
    # a four-digit number is left ungrouped in Polish and Russian ("1820"), so plain numbers of
    # four or more digits count as values too
    pattern = re.compile(rf"(?<![\d/])(\d+/\d+|\d{{1,3}}(?:{groups}\d{{3}})+(?!\d)|\d+{point}\d+"
                         rf"|\d{{4,}}(?![\d/]))")
    found = set()
    for match in pattern.findall(text):
        if "/" in match:
            found.add(match)
        else:
            plain = re.sub(groups, "", match).replace(get_decimal_symbol(LOCALES[language]), ".")
            found.add(str(Decimal(plain)))
    return found


def test_values_are_read_in_each_language_format():
    assert values("p = 0.9150, 1,820 hands, 7565/8268", "en") == {"0.9150", "1820", "7565/8268"}
    assert values("p = 0,9150, 1\u00a0820 układów, 7565/8268", "pl") == {"0.9150", "1820",
                                                                          "7565/8268"}
    assert values("C(4, 3) and 1, 10, 11", "en") == set()


def markdown_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "markdown"]


def test_the_lessons_and_languages_are_the_expected_ones():
    assert set(translate.LANGUAGES) == {"pl", "cs", "ru"}
    for lesson in ("triomino_combinatorics", "matematiko_probabilities", "board_geometry"):
        assert lesson in translate.LESSONS
        assert f"{lesson}_teacher" in translate.LESSONS   # each lesson has a teacher's page
    for lesson in translate.LESSONS:
        assert (EXPLORE / f"{lesson}.ipynb").exists()


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_every_markdown_cell_has_an_up_to_date_translation(lesson, language):
    assert translate.problems(lesson, language) == []


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_the_copy_on_disk_is_what_the_generator_builds(lesson, language):
    built = translate.text_of(translate.without_outputs(translate.translated(lesson, language)))
    on_disk = nbformat.read(translate.copy_path(lesson, language), as_version=4)
    assert translate.text_of(translate.without_outputs(on_disk)) == built, (
        "run: .venv/bin/python notebooks/explore/translate.py")


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_only_markdown_the_header_and_outputs_differ_from_english(lesson, language):
    source = translate.english(lesson)
    copy = nbformat.read(translate.copy_path(lesson, language), as_version=4)
    assert [c.cell_type for c in copy.cells] == [c.cell_type for c in source.cells]
    assert [c.id for c in copy.cells] == [c.id for c in source.cells]
    code = [(a, b) for a, b in zip(source.cells, copy.cells, strict=True)
            if a.cell_type == "code"]
    header_en, header_copy = code[0]
    assert header_en.source.endswith(f'header("explore/{lesson}.ipynb")')
    assert header_copy.source.endswith(
        f'header("explore/{lesson}.ipynb", language="{language}")')
    assert header_copy.metadata == header_en.metadata
    for english_cell, copy_cell in code[1:]:
        assert copy_cell.source == english_cell.source
        assert copy_cell.metadata == english_cell.metadata
        assert output_kinds(copy_cell) == output_kinds(english_cell), copy_cell.id


def output_kinds(cell: nbformat.NotebookNode) -> list[str]:
    """The kinds of a cell's outputs, consecutive streams counted once (the kernel may
    split one printed text into several stream messages, as nbval knows)."""
    kinds: list[str] = []
    for output in cell.outputs:
        kind = f"stream {output.name}" if output.output_type == "stream" else output.output_type
        if not kinds or kinds[-1] != kind or not kind.startswith("stream"):
            kinds.append(kind)
    return kinds


def stream_text(notebook: nbformat.NotebookNode) -> str:
    return "\n".join(output.text for cell in notebook.cells if cell.cell_type == "code"
                     for output in cell.outputs if output.output_type == "stream")


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_copies_print_their_results_in_their_language(lesson, language):
    """Each copy was executed in its language: the same values, in the language's format."""
    source = stream_text(translate.english(lesson))
    printed = stream_text(nbformat.read(translate.copy_path(lesson, language), as_version=4))
    if not source:
        return
    assert printed != source
    missing = values(source, "en") - values(printed, language)
    assert not missing, f"{language} {lesson}: printed values lost: {sorted(missing)[:8]}"
    assert not re.search(r"\d\.\d{4}", printed), "an English decimal point in a copy"


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_translations_are_translated_and_keep_every_exact_value(lesson, language):
    source = translate.english(lesson)
    copy = nbformat.read(translate.copy_path(lesson, language), as_version=4)
    for english_cell, copy_cell in zip(markdown_cells(source), markdown_cells(copy),
                                       strict=True):
        assert copy_cell.source != english_cell.source, f"{copy_cell.id} is not translated"
        missing = values(english_cell.source, "en") - values(copy_cell.source, language)
        assert not missing, f"{language} {lesson} {copy_cell.id} lost the values {missing}"
        prose = re.sub(r"`[^`]*`", "", copy_cell.source)
        assert not re.search(r"(?<![\d.])\d+\.\d+(?![\d.])", prose), (
            f"{language} {lesson} {copy_cell.id}: a decimal written with an English point")
        assert copy_cell.source.count("`") == english_cell.source.count("`")


def test_a_changed_english_cell_makes_its_translation_stale(monkeypatch):
    lesson, language = translate.LESSONS[0], translate.LANGUAGES[0]
    original = translate.english

    def edited(name):
        notebook = original(name)
        markdown_cells(notebook)[0].source += "\n\nOne more sentence."
        return notebook

    monkeypatch.setattr(translate, "english", edited)
    found = translate.problems(lesson, language)
    assert len(found) == 1 and "changed in English" in found[0]
    with pytest.raises(translate.TranslationError):
        translate.translated(lesson, language)


def test_hidden_setup_cells_and_widget_cells_are_tagged():
    for lesson in translate.LESSONS:
        cells = [c for c in translate.english(lesson).cells if c.cell_type == "code"]
        for cell in cells[:2]:
            assert cell.metadata.get("jupyter", {}).get("source_hidden") is True
        for cell in cells:
            shows_widget = any(
                "application/vnd.jupyter.widget-view+json" in output.get("data", {})
                for output in cell.outputs)
            prints = any(output.get("output_type") == "stream" for output in cell.outputs)
            ignored = "nbval-ignore-output" in cell.metadata.get("tags", [])
            assert ignored == shows_widget or (ignored and not prints), cell.id
            assert not (ignored and prints), f"{lesson} {cell.id}: printed results unchecked"
