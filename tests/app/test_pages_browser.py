"""Every page of the app renders in Voila, and a screenshot of each is kept.

Screenshots go to ``test-artifacts/screenshots/``; with
``MATHGAMES_UPDATE_SCREENSHOTS=1`` they also replace the README's pictures in
``docs/screenshots/``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from mathgames.page_list import PAGES
from tests.conftest import ARTIFACTS, ROOT, voila_errors, wait_rendered

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "screenshots"
DOCS = ROOT / "docs" / "screenshots"


def shot_name(notebook: str) -> str:
    return Path(notebook).stem + ".png"


def keep_screenshot(page: Any, notebook: str, suffix: str = "") -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / shot_name(notebook).replace(".png", f"{suffix}.png")
    page.wait_for_timeout(800)  # let charts and fonts settle
    page.screenshot(path=str(path), full_page=False)
    if os.environ.get("MATHGAMES_UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / path.name)
    return path


def start_if_needed(page: Any) -> None:
    """Game pages open on their setup panel: press Start to see the game."""
    start = page.locator(".mg-start").first
    if start.count() and start.is_visible():
        start.click()


def test_every_landing_page_link_renders_without_an_error(notebook_page: Any, page: Any,
                                                          voila_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})  # a classroom projector
    notebook_page("index.ipynb", wait_for=".mg-landing .mg-card")
    keep_screenshot(page, "index.ipynb")
    hrefs = [page.locator(".mg-card").nth(i).get_attribute("href")
             for i in range(page.locator(".mg-card").count())]
    shown = [entry for entry in PAGES if entry.kind not in ("demo", "landing")]  # cards
    assert len(hrefs) == len(shown)
    for href, entry in zip(hrefs, shown, strict=True):
        page.goto(f"{voila_url}/voila/render/{href}", wait_until="domcontentloaded")
        wait_rendered(page, ".mg-header")
        # Wait for the page's last output, then look for errors once more.
        page.wait_for_function(
            "() => !document.querySelector('.jp-OutputArea-output .lm-Widget.jp-Spinner')")
        page.wait_for_timeout(1500)
        assert voila_errors(page) == [], href
        assert page.locator(".mg-header .mg-title").text_content() == entry.title
        if entry.kind == "game":
            start_if_needed(page)
            wait_rendered(page, ".mathgames-board")
        path = keep_screenshot(page, entry.notebook)
        assert path.stat().st_size > 10_000  # a blank page compresses to almost nothing
        if entry.kind == "game":  # and as a student's phone shows it
            page.set_viewport_size({"width": 390, "height": 844})
            assert keep_screenshot(page, entry.notebook, "_phone").stat().st_size > 10_000
            page.set_viewport_size({"width": 1280, "height": 720})
    assert page.mg_errors == []
