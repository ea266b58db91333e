"""The lesson notebooks' language copies are up to date and fully translated.

The English notebooks in ``notebooks/explore`` are the source; ``translate.py``
builds the Polish, Czech and Russian copies from them and the translation files.
These tests rebuild every copy in memory and compare it with the file on disk,
so a copy that someone edited by hand, or an English change that was never
regenerated, fails here (nbval then runs the copies like any other notebook).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

EXPLORE = Path(__file__).resolve().parents[2] / "notebooks" / "explore"


def _load_translate():
    spec = importlib.util.spec_from_file_location("lessons_translate", EXPLORE / "translate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


translate = _load_translate()
PAIRS = [(lesson, language) for lesson in translate.LESSONS for language in translate.LANGUAGES]
NUMBER = re.compile(r"\d+/\d+|\d+\.\d+")


def markdown_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "markdown"]


def test_the_lessons_and_languages_are_the_expected_ones():
    assert set(translate.LANGUAGES) == {"pl", "cs", "ru"}
    for lesson in translate.LESSONS:
        assert (EXPLORE / f"{lesson}.ipynb").exists()


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_every_markdown_cell_has_an_up_to_date_translation(lesson, language):
    assert translate.problems(lesson, language) == []


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_the_copy_on_disk_is_what_the_generator_builds(lesson, language):
    built = translate.text_of(translate.translated(lesson, language))
    on_disk = translate.copy_path(lesson, language).read_text(encoding="utf-8")
    assert on_disk == built, "run: .venv/bin/python notebooks/explore/translate.py"


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_only_markdown_and_the_header_differ_from_english(lesson, language):
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
        assert copy_cell.outputs == english_cell.outputs
        assert copy_cell.metadata == english_cell.metadata


@pytest.mark.parametrize(("lesson", "language"), PAIRS)
def test_translations_are_translated_and_keep_every_exact_value(lesson, language):
    source = translate.english(lesson)
    copy = nbformat.read(translate.copy_path(lesson, language), as_version=4)
    for english_cell, copy_cell in zip(markdown_cells(source), markdown_cells(copy),
                                       strict=True):
        assert copy_cell.source != english_cell.source, f"{copy_cell.id} is not translated"
        missing = set(NUMBER.findall(english_cell.source)) - set(
            NUMBER.findall(copy_cell.source))
        assert not missing, f"{language} {lesson} {copy_cell.id} lost the values {missing}"
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
