"""Generate the Polish, Czech and Russian copies of the lesson notebooks.

The English notebooks in this folder are the source. Each language copy
``<language>/<lesson>.ipynb`` is the English notebook with these changes only:

- every markdown cell's text is replaced by its translation from
  ``translations/<language>/<lesson>.json`` (one file per lesson and language, so
  that lessons can be added and translated without touching each other's files);
- the first code cell (the hidden header) passes ``language="<language>"`` to
  ``header(...)``, which sets the kernel's language, so the charts and controls
  are labelled in that language too;
- the copy is executed (in ``<language>/``), so every output is in that language.

Code cells stay identical; each copy is executed in its own language when it is
written, so its printed results, chart labels and legends are in that language
(numbers in its format, by Babel), and nbval checks each copy against its own
stored outputs.

The lessons are the English notebooks present in this folder (a new
``<lesson>.ipynb`` is picked up without editing this script). A translation file
maps each markdown cell id to the English text it
was made from (``source``) and its translation (``text``). When an English cell
changes, its translation is *stale* until a translator updates both fields.

    .venv/bin/python notebooks/explore/translate.py            # write the copies
    .venv/bin/python notebooks/explore/translate.py --check    # exit 1 if out of date
    .venv/bin/python notebooks/explore/translate.py --todo pl  # list missing or stale cells
    .venv/bin/python notebooks/explore/translate.py --add-missing pl   # add empty entries
    .venv/bin/python notebooks/explore/translate.py --execute  # re-run the English lessons first
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
TRANSLATIONS = HERE / "translations"

def discover_lessons() -> tuple[str, ...]:
    """The English lesson notebooks in this folder, by name (sorted).

    >>> {"board_geometry", "triomino_combinatorics"} <= set(discover_lessons())
    True
    """
    return tuple(sorted(path.stem for path in HERE.glob("*.ipynb")
                        if not path.stem.startswith((".", "_"))))


LESSONS = discover_lessons()
LANGUAGES = ("pl", "cs", "ru")
HEADER = 'from mathgames.pages.header import header\n\nheader("explore/{lesson}.ipynb"{extra})'


class TranslationError(Exception):
    """A markdown cell without an up-to-date translation, or an unexpected notebook."""


def english(lesson: str) -> nbformat.NotebookNode:
    """The English source notebook of a lesson."""
    return nbformat.read(HERE / f"{lesson}.ipynb", as_version=4)


def copy_path(lesson: str, language: str) -> Path:
    """Where the copy of a lesson in a language lives."""
    return HERE / language / f"{lesson}.ipynb"


def translation_path(lesson: str, language: str) -> Path:
    """The translation file of one lesson in one language."""
    return TRANSLATIONS / language / f"{lesson}.json"


def load_translations(language: str) -> dict:
    """Every translation of a language: ``{lesson: {cell id: {source, text}}}``."""
    lessons = {}
    for path in sorted((TRANSLATIONS / language).glob("*.json")):
        lessons[path.stem] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return lessons


def save_translations(language: str, lessons: dict) -> None:
    """Write one translation file per lesson (cells in the notebook's order)."""
    for lesson, cells in lessons.items():
        path = translation_path(lesson, language)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"language": language, "lesson": lesson, "cells": cells}
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def problems(lesson: str, language: str, translations: dict | None = None) -> list[str]:
    """Markdown cells of a lesson whose translation is missing, empty or stale."""
    if translations is None:
        translations = load_translations(language)
    entries = translations.get(lesson, {})
    found = []
    for cell in english(lesson).cells:
        if cell.cell_type != "markdown":
            continue
        entry = entries.get(cell.id)
        if entry is None or not entry.get("text", "").strip():
            found.append(f"{language}: {lesson}: cell {cell.id!r} has no translation")
        elif entry.get("source") != cell.source:
            found.append(f"{language}: {lesson}: cell {cell.id!r} changed in English since "
                         "it was translated")
    known = {cell.id for cell in english(lesson).cells if cell.cell_type == "markdown"}
    found += [f"{language}: {lesson}: translation of a cell {cell_id!r} that does not exist"
              for cell_id in entries if cell_id not in known]
    return found


def header_source(lesson: str, language: str | None = None) -> str:
    """The source of a lesson's first (header) cell, in English or for a language copy."""
    return HEADER.format(lesson=lesson, extra=f', language="{language}"' if language else "")


def translated(lesson: str, language: str,
               translations: dict | None = None) -> nbformat.NotebookNode:
    """The language copy of a lesson, built in memory."""
    if translations is None:
        translations = load_translations(language)
    found = problems(lesson, language, translations)
    if found:
        raise TranslationError("\n".join(found))
    notebook = copy.deepcopy(english(lesson))
    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    if first.source != header_source(lesson):
        raise TranslationError(f"{lesson}: the first code cell is not the header cell:\n"
                               f"{first.source}")
    first.source = header_source(lesson, language)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = translations[lesson][cell.id]["text"]
    notebook.metadata["mathgames"] = {
        "language": language,
        "generated_from": f"../{lesson}.ipynb",
        "generated_by": "translate.py (do not edit this copy; edit the English notebook "
                        f"and translations/{language}/{lesson}.json)",
    }
    return notebook


def text_of(notebook: nbformat.NotebookNode) -> str:
    """A notebook as the text written to disk (as ``nbformat.write`` writes it)."""
    text = nbformat.writes(notebook)
    return text if text.endswith("\n") else text + "\n"


def without_outputs(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of a notebook with no outputs, execution counts or widget state.

    The language copies are executed in their own language, so their outputs differ
    from the English ones; everything else must be exactly what :func:`translated` builds.
    """
    bare = copy.deepcopy(notebook)
    bare.metadata.pop("widgets", None)
    for cell in bare.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return bare


def run(notebook: nbformat.NotebookNode, folder: Path) -> nbformat.NotebookNode:
    """Execute a notebook top to bottom in ``folder`` (its outputs stored, no timestamps)."""
    from nbclient import NotebookClient

    NotebookClient(notebook, timeout=300, kernel_name="python3", store_widget_state=False,
                   resources={"metadata": {"path": str(folder)}}).execute()
    notebook.metadata.pop("widgets", None)   # model states: large, and rebuilt on every run
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    return notebook


def stale_copy(lesson: str, language: str, translations: dict) -> bool:
    """True if the copy on disk is missing or differs from a fresh build (outputs aside)."""
    path = copy_path(lesson, language)
    if not path.exists():
        return True
    on_disk = nbformat.read(path, as_version=4)
    wanted = translated(lesson, language, translations)
    return text_of(without_outputs(on_disk)) != text_of(without_outputs(wanted))


def out_of_date() -> list[str]:
    """Every problem: missing or stale translations, copies that differ from a fresh build."""
    found = []
    for language in LANGUAGES:
        translations = load_translations(language)
        for lesson in LESSONS:
            trouble = problems(lesson, language, translations)
            if trouble:
                found += trouble
                continue
            if stale_copy(lesson, language, translations):
                path = copy_path(lesson, language)
                found.append(f"{path.relative_to(HERE)} is not up to date: run translate.py")
    return found


def write_copies(force: bool = False) -> list[Path]:
    """Build, execute in its own language and write every copy that changed (or all, with
    ``force``); return the paths written."""
    written = []
    for language in LANGUAGES:
        translations = load_translations(language)
        for lesson in LESSONS:
            if not force and not stale_copy(lesson, language, translations):
                continue
            path = copy_path(lesson, language)
            path.parent.mkdir(exist_ok=True)
            notebook = run(translated(lesson, language, translations), path.parent)
            path.write_text(text_of(notebook), encoding="utf-8")
            written.append(path)
    return written


def execute(lessons: tuple[str, ...] = LESSONS) -> None:
    """Run the English lessons top to bottom and store their outputs (no timestamps)."""
    for lesson in lessons:
        path = HERE / f"{lesson}.ipynb"
        notebook = run(nbformat.read(path, as_version=4), HERE)
        nbformat.write(notebook, path)
        print("executed", path.name)


def add_missing(language: str) -> int:
    """Add empty entries for untranslated cells (and refresh nothing else)."""
    lessons = load_translations(language)
    added = 0
    ordered: dict = {}
    for lesson in LESSONS:
        entries = lessons.get(lesson, {})
        ordered[lesson] = {}
        for cell in english(lesson).cells:
            if cell.cell_type != "markdown":
                continue
            if cell.id not in entries:
                entries[cell.id] = {"source": cell.source, "text": ""}
                added += 1
            ordered[lesson][cell.id] = entries[cell.id]
        ordered[lesson].update({k: v for k, v in entries.items() if k not in ordered[lesson]})
    save_translations(language, ordered)
    return added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report what is out of date (exit status 1 if anything is)")
    parser.add_argument("--todo", metavar="LANG", help="list the cells LANG still has to translate")
    parser.add_argument("--add-missing", metavar="LANG",
                        help="add empty entries for LANG's untranslated cells")
    parser.add_argument("--execute", action="store_true",
                        help="first run the English lessons and store their outputs, then "
                             "rebuild and run every copy")
    args = parser.parse_args(argv)
    if args.todo:
        for lesson in LESSONS:
            for line in problems(lesson, args.todo):
                print(line)
        return 0
    if args.add_missing:
        print(f"added {add_missing(args.add_missing)} empty entries")
        return 0
    if args.check:
        found = out_of_date()
        for line in found:
            print(line)
        return 1 if found else 0
    if args.execute:
        execute()
    try:
        written = write_copies(force=args.execute)
    except TranslationError as error:
        print(error, file=sys.stderr)
        return 1
    for path in written:
        print("wrote", path.relative_to(HERE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
