"""The static site (``make site``) in headless Chromium, served by a plain static file server
on loopback: each game's page runs Python in the browser (Pyodide), asks nothing of any other
host, plays a move and the bot's answer, and resumes the game after a reload.

The site is built once (``site-src/build.py`` reuses ``site/`` when nothing it holds changed).
"""

from __future__ import annotations

import base64
import functools
import http.server
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mathgames.halma import Game as HalmaGame
from mathgames.triomino import Game as TriominoGame
from mathgames.triomino import cell_id
from mathgames.triomino.mosaic_gallery import GALLERY
from mathgames.triomino.mosaic_widget import MosaicApp
from mathgames.triomino.view import rack_id
from tests.app.test_games_browser import reload_and_resume
from tests.conftest import ROOT, wait_rendered

pytestmark = pytest.mark.browser

BUILD = ROOT / "site-src" / "build.py"


def build_site(root: Path, out: Path, *extra: str) -> str:
    """Run the site's build from the checkout at ``root``; its output, or a failure with it."""
    done = subprocess.run([sys.executable, str(root / "site-src" / "build.py"), "--out", str(out),
                           "--cache", str(ROOT / ".site-cache"), *extra],
                          cwd=root, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"the site's build failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def site() -> Path:
    """``site/`` as ``make site`` builds it (reused when nothing it holds changed)."""
    build_site(ROOT, ROOT / "site")
    return ROOT / "site"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        """No line per request in the test's output."""


@pytest.fixture(scope="module")
def site_url(site: Path) -> Iterator[str]:
    """The site on a plain static file server (Python's own) on a loopback port."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def open_game(page: Any, site_url: str, name: str, wait_for: str, lang: str = "en") -> list[str]:
    """Open a game's page; every address it asks for is kept in the list returned."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{site_url}/{name}.html?lang={lang}", wait_until="domcontentloaded")
    wait_rendered(page, wait_for)
    return asked


def only_loopback(asked: list[str], site_url: str) -> None:
    elsewhere = [url for url in asked
                 if not url.startswith((site_url + "/", "blob:", "data:"))]
    assert asked and elsewhere == []


@pytest.mark.parametrize("name", ["halma", "chinese_checkers"])
def test_halma_move_bot_answer_and_resume(page: Any, site_url: str, name: str) -> None:
    asked = open_game(page, site_url, name, ".mg-start")
    page.locator(".mg-start").click()  # the default: you against a bot
    page.locator(".mathgames-board").wait_for(state="visible")
    move = HalmaGame("halma" if name == "halma" else "star", 2).legal_moves()[0]
    page.locator(f'.mathgames-board [data-cell="{move.start}"]').click()
    page.wait_for_selector(f'.mathgames-board [data-cell="{move.end}"] .mg-dest')
    page.locator(f'.mathgames-board [data-cell="{move.end}"]').click()
    # the bot's answer (pure Python in the browser: numba is absent there)
    page.wait_for_function(
        "() => (document.querySelector('.mg-move-list')?.textContent.match(/-/g) || [])"
        ".length >= 2")
    moves = page.locator(".mg-move-list").text_content()
    assert f"{move.start}-{move.end}" in moves
    reload_and_resume(page)
    page.wait_for_function(
        "text => document.querySelector('.mg-move-list')?.textContent === text", arg=moves)
    # undo takes moves back; "How to play" opens with the game's pictures
    page.locator(".mg-undo").click()
    page.wait_for_function(
        "text => document.querySelector('.mg-move-list')?.textContent !== text", arg=moves)
    page.locator(".mg-controls .mg-howto-button").click()
    page.wait_for_selector(".mg-howto .mg-howto-part")
    assert page.locator(".mg-howto svg").count() >= 1
    # no numpy, no charts, no Babel on a game's page (none of them is even in the site)
    loaded = page.evaluate("() => globalThis.mgPython.runPython("
                           "'import sys; \" \".join(sorted(sys.modules))')").split()
    assert not {"numpy", "bqplot", "babel", "numba"} & {name.split(".")[0] for name in loaded}
    # the page imported the game's modules from the bytecode the build compiled (Pyodide
    # writes none itself)
    assert page.evaluate("() => globalThis.mgPython.runPython("
                         "'import os, mathgames.halma.widget as m; os.path.exists(m.__cached__)')")
    only_loopback(asked, site_url)
    assert page.mg_errors == []


def test_triomino_move_bot_answer_and_resume(page: Any, site_url: str) -> None:
    asked = open_game(page, site_url, "triomino", ".mg-start")
    seed = page.locator(".mg-seed input")
    seed.fill("3")
    seed.press("Tab")
    page.locator(".mg-start").click()
    page.locator(".mg-triomino-table .mathgames-board").wait_for(state="visible")
    first = TriominoGame("pressman", 2, 3).legal_placements()[0]
    page.locator(f'.mg-triomino-rack [data-cell="{rack_id(first.tile)}"]').click()
    for _ in range((3 - first.rotation) % 3):
        page.locator(".mg-rotate").click()
    page.locator(f'.mg-triomino-table [data-cell="{cell_id(first.cell)}"]').click()
    # our tile and the bot's answer, both on the table and in the browser's kept copy
    page.wait_for_function("() => !!window.localStorage.getItem('mathgames:triomino')"
                           " && JSON.parse(window.localStorage.getItem('mathgames:triomino'))"
                           ".game.table.length >= 2")
    tiles = page.locator(".mg-triomino-table .mg-tile").count()
    assert tiles >= 2
    reload_and_resume(page)
    page.wait_for_function(
        "n => document.querySelectorAll('.mg-triomino-table .mg-tile').length === n", arg=tiles)
    only_loopback(asked, site_url)
    assert page.mg_errors == []


def test_matematiko_places_numbers_and_resumes(page: Any, site_url: str) -> None:
    asked = open_game(page, site_url, "matematiko", ".mg-start")
    page.locator(".mg-start").click()
    page.locator(".mathgames-board").wait_for(state="visible")
    for name in ("a1", "b2"):
        page.locator(f'.mathgames-board [data-cell="{name}"]').click()
        page.wait_for_selector(f'.mathgames-board .mg-number[data-for="{name}"]')
    numbers = [page.locator(f'.mathgames-board .mg-number[data-for="{name}"]').text_content()
               for name in ("a1", "b2")]
    page.locator(".mg-hint").click()  # the hint marks a cell for the next number
    page.wait_for_selector(".mg-hint.mod-active")
    reload_and_resume(page)
    page.wait_for_selector('.mathgames-board .mg-number[data-for="b2"]')
    assert [page.locator(f'.mathgames-board .mg-number[data-for="{name}"]').text_content()
            for name in ("a1", "b2")] == numbers
    only_loopback(asked, site_url)
    assert page.mg_errors == []


def test_mosaic_fills_a_puzzle_and_resumes(page: Any, site_url: str) -> None:
    asked = open_game(page, site_url, "mosaic", ".mg-mosaic-board .mathgames-board")
    easiest = min(GALLERY, key=lambda p: p.size)
    app = MosaicApp()
    app.choose_puzzle(easiest.key)
    cells = app.target_ids()
    page.locator(".mg-mosaic-mode select").select_option(index=1 + GALLERY.index(easiest))
    cell = page.locator(f'.mg-mosaic-board [data-cell="{cells[0]}"]')
    cell.wait_for(state="attached")
    cell.click()
    page.wait_for_function(
        "() => document.querySelectorAll('.mg-mosaic-board [data-filled]').length == 1")
    reload_and_resume(page)
    page.wait_for_function(
        "() => document.querySelectorAll('.mg-mosaic-board [data-filled]').length == 1")
    only_loopback(asked, site_url)
    assert page.mg_errors == []


def test_the_game_pages_modules_are_compiled_for_pyodide(site: Path) -> None:
    """The build compiled what a game's page imports with Pyodide's own Python (3.12: its
    bytecode's magic number), as unchecked-hash .pyc files where Python looks for them."""
    pages = site.joinpath("halma.html").read_text()
    (compiled,) = site.glob("wheels/compiled-*.zip")
    assert f'"{compiled.name}"' in pages
    with zipfile.ZipFile(compiled) as archive:
        names = set(archive.namelist())
        code = archive.read("mathgames/halma/__pycache__/widget.cpython-312.pyc")
    assert {"IPython/core/__pycache__/interactiveshell.cpython-312.pyc",
            "ipywidgets/widgets/__pycache__/widget.cpython-312.pyc",
            "mathgames/halma/__pycache__/bots.cpython-312.pyc"} <= names
    assert not any(name.startswith(("babel/", "numpy/")) for name in names)
    assert int.from_bytes(code[:2], "little") == 3531  # CPython 3.12's bytecode
    assert int.from_bytes(code[4:8], "little") == 0b01  # hash-based, unchecked


def test_language_from_the_address_and_links_within_the_site(page: Any, site_url: str) -> None:
    open_game(page, site_url, "halma", ".mg-start", lang="pl")
    header = page.locator(".mg-header")
    assert header.locator(".mg-current").text_content() == "Polski"
    assert header.locator(".mg-home").get_attribute("href") == "index.html?lang=pl"
    # no class server was named at the build: no "Join a class" on the site's pages
    assert header.locator(".mg-join-link").count() == 0
    page.goto(f"{site_url}/index.html?lang=cs")
    shown = page.locator(".mg-landing:visible")
    assert shown.get_attribute("data-lang") == "cs"
    games = shown.locator('.mg-card[data-kind="game"]')
    assert sorted(games.nth(i).get_attribute("href") for i in range(games.count())) == [
        f"{name}.html?lang=cs" for name in
        ("chinese_checkers", "halma", "matematiko", "mosaic", "triomino")]
    lessons = shown.locator('.mg-card[data-kind="lesson"]')
    assert lessons.count() == 4
    away = [lessons.nth(i) for i in range(4)
            if lessons.nth(i).get_attribute("href") != "lesson-mosaics.html?lang=cs"]
    # the three lessons that chart with bqplot (numpy) open on Binder, and say so
    assert len(away) == 3
    for card in away:
        assert card.get_attribute("href").startswith("https://mybinder.org/")
        assert card.locator(".mg-needs-server").count() == 1
    assert shown.locator('.mg-card[data-kind="class"]').count() == 0


def test_the_site_is_built_from_the_checkout(tmp_path: Path) -> None:
    """A label changed in a copy of the checkout shows up in the copy's site (its landing page
    and mathgames' wheel), and a class server named at the build brings "Join a class"."""
    copy = tmp_path / "checkout"
    copy.mkdir()
    for top in ("mathgames", "notebooks", "site-src"):
        shutil.copytree(ROOT / top, copy / top, ignore=shutil.ignore_patterns("__pycache__"))
    for top in ("pyproject.toml", ".gitignore", "README.md"):
        shutil.copy2(ROOT / top, copy / top)
    page_py = copy / "mathgames" / "pages" / "header.py"
    page_py.write_text(page_py.read_text().replace('_("Maths games")', '_("Maths games 58")'))
    out = tmp_path / "site"
    build_site(copy, out, "--server", "http://127.0.0.1:8866")
    assert "Maths games 58" in (out / "index.html").read_text()
    wheel = next((out / "wheels").glob("mathgames-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        assert '_("Maths games 58")' in archive.read("mathgames/pages/header.py").decode()
    landing = (out / "index.html").read_text()
    assert 'class="mg-join-link" href="http://127.0.0.1:8866/voila/render/join.ipynb' in landing
    # the same inputs again: nothing to build
    assert "up to date" in build_site(copy, out, "--server", "http://127.0.0.1:8866")


def test_the_mosaics_lesson_runs_in_the_browser(page: Any, site_url: str) -> None:
    """The lesson without charts: its text, its printed tables, its widgets, in Polish."""
    asked = open_game(page, site_url, "lesson-mosaics", ".mg-mosaic-board .mathgames-board",
                      lang="pl")
    page.wait_for_function("() => !!document.body.dataset.mgReady")
    assert page.locator(".mg-error").count() == 0
    assert "Mozaiki i poliamenty" in page.locator(".mg-markdown").first.text_content()
    assert "trójkątów: 4, różnych figur: 3" in " ".join(
        page.locator(".mg-stream").all_text_contents())
    predict = page.locator(".mg-lesson-predict").first
    predict.locator(".mg-lesson-guess input").fill("12")
    predict.locator(".mg-lesson-check").click()
    page.wait_for_function("() => document.querySelector('.mg-lesson-prediction')"
                           "?.textContent.trim().length > 0")
    # the printable worksheet, made in the browser from the Polish notebook's own text
    worksheet = page.locator("a.mg-lesson-worksheet")
    assert worksheet.get_attribute("download") == "mosaics-pl-worksheet.html"
    sheet = base64.b64decode(worksheet.get_attribute("href").split(",", 1)[1]).decode()
    assert '<html lang="pl">' in sheet and "mg-space" in sheet and "<details>" not in sheet
    only_loopback(asked, site_url)
    assert page.mg_errors == []
