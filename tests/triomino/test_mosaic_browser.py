"""End to end in Voila: fill the easiest silhouette by clicking, then download its SVG."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from mathgames.triomino.mosaic_gallery import GALLERY
from mathgames.triomino.mosaic_widget import MosaicApp
from tests.conftest import ARTIFACTS, ROOT

pytestmark = pytest.mark.browser


def board_cell(page: Any, cell: str) -> Any:
    return page.locator(f'.mg-mosaic-board [data-cell="{cell}"]')


def test_fill_the_easiest_silhouette_and_download_the_svg(notebook_page: Any) -> None:
    page = notebook_page("mosaic.ipynb", wait_for=".mg-mosaic-board .mathgames-board")
    easiest = min(GALLERY, key=lambda p: p.size)
    # where the widget puts the outline: the same app in Python, with the same board
    app = MosaicApp()
    app.choose_puzzle(easiest.key)
    cells = app.target_ids()
    page.locator(".mg-mosaic-mode select").select_option(index=1 + GALLERY.index(easiest))
    board_cell(page, cells[0]).wait_for(state="attached")
    page.wait_for_function(
        "n => document.querySelectorAll('.mg-mosaic-board polygon[fill=\"#dfe9f3\"]').length == n",
        arg=len(cells))
    for count, cell in enumerate(reversed(cells), start=1):
        board_cell(page, cell).click()
        page.wait_for_function(
            "n => document.querySelectorAll('.mg-mosaic-board [data-filled]').length == n",
            arg=count)
    solved = page.locator(".mg-solved")
    solved.wait_for(state="visible")
    assert f"{len(cells)} triangles" in (solved.text_content() or "")
    with page.expect_download() as info:
        page.locator(".mg-download-svg").click()
    download = info.value
    assert download.suggested_filename == f"{easiest.key}.svg"
    svg = Path(download.path()).read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count('data-filled="1"') == len(cells)
    assert 'class="mg-outline"' in svg and "data-cell" not in svg
    assert page.mg_errors == []


def test_a_puzzle_in_progress_for_the_readme(notebook_page: Any) -> None:
    page = notebook_page("mosaic.ipynb", wait_for=".mg-mosaic-board .mathgames-board")
    cat = next(p for p in GALLERY if p.key == "cat")
    app = MosaicApp()
    app.choose_puzzle("cat")
    cells = app.target_ids()
    page.locator(".mg-mosaic-mode select").select_option(index=1 + GALLERY.index(cat))
    board_cell(page, cells[0]).wait_for(state="attached")
    half = cells[: len(cells) * 2 // 3]
    for count, cell in enumerate(half, start=1):
        board_cell(page, cell).click()
        page.wait_for_function(
            "n => document.querySelectorAll('.mg-mosaic-board [data-filled]').length == n",
            arg=count)
    # the status line is another widget: its update may arrive after the board's
    page.wait_for_function(
        "text => document.querySelector('.mg-mosaic .mg-status').textContent.includes(text)",
        arg=f"{len(half)} of {len(cells)}")
    # a window as tall as the app: a taller element is cut off in its screenshot
    page.set_viewport_size({"width": 1280, "height": 1300})
    page.wait_for_timeout(400)
    shots = ARTIFACTS / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    path = shots / "mosaic_puzzle.png"
    page.locator(".mg-mosaic").first.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    if os.environ.get("MATHGAMES_UPDATE_SCREENSHOTS") == "1":
        shutil.copy(path, ROOT / "docs" / "screenshots" / "mosaic_puzzle.png")
    assert page.mg_errors == []


def test_the_triomino_page_links_to_the_mosaic_in_its_language(notebook_page: Any) -> None:
    page = notebook_page("triomino.ipynb", lang="pl", wait_for=".mg-header .mg-related")
    related = page.locator(".mg-header .mg-related")
    assert related.text_content() == "Mozaika z kamieni"
    assert related.get_attribute("href") == "mosaic.ipynb?lang=pl"
    related.click()
    page.wait_for_selector(".mg-mosaic-board .mathgames-board", timeout=90_000)
    assert page.locator(".mg-mosaic h3").first.text_content() == "Mozaika z odwróconych kamieni"
    options = [text.replace("\xa0", " ")  # ipywidgets shows spaces as no-break spaces
               for text in page.locator(".mg-mosaic-mode select option").all_text_contents()]
    assert any(text.startswith("Samuraj z mieczem") for text in options), options
    assert page.mg_errors == []


@pytest.mark.parametrize(("language", "heading", "undo"),
                         [("cs", "Mozaiky a polyiamanty", "Zpět"),
                          ("ru", "Мозаики и полиамонды", "Отменить")])
def test_the_lesson_in_another_language(notebook_page: Any, language: str, heading: str,
                                        undo: str) -> None:
    page = notebook_page(f"explore/{language}/mosaics.ipynb", lang=language,
                         wait_for=".mg-mosaic-board .mathgames-board")
    assert heading in (page.locator("h1").first.text_content() or "")
    assert page.locator(".mg-mosaic-undo").first.text_content().strip() == undo
    # the counts printed by the program (Voila shows the cells' outputs as they run)
    page.wait_for_function("() => document.body.textContent.includes('OEIS A006534')")
    assert page.mg_errors == []


def test_the_lesson_links_its_teacher_page_with_a_route_and_answers(notebook_page: Any) -> None:
    page = notebook_page("explore/mosaics.ipynb", wait_for=".mg-lesson-teacher")
    href = page.locator("a.mg-lesson-teacher").get_attribute("href") or ""
    assert href.startswith("mosaics_teacher.ipynb")
    page = notebook_page("explore/mosaics_teacher.ipynb", wait_for=".mg-lesson-game-link")
    text = page.locator("body").inner_text()
    assert "45-minute route" in text and "Answers for the teacher" in text
    assert page.mg_errors == []
