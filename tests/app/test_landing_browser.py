"""The landing page in a real Voila server and Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from mathgames.page_list import PAGES

pytestmark = pytest.mark.browser


def test_landing_page_lists_every_game_and_lesson(notebook_page: Any) -> None:
    page = notebook_page("index.ipynb", wait_for=".mg-landing .mg-card")
    cards = page.locator(".mg-card")
    shown = [p for p in PAGES if p.kind not in ("demo", "landing")]  # cards: no demo
    assert cards.count() == len(shown) == 12
    assert page.locator('.mg-card[data-kind="game"]').count() == 5
    assert page.locator('.mg-card[data-kind="lesson"]').count() == 4
    assert page.locator('.mg-card[data-kind="demo"]').count() == 0
    hrefs = [cards.nth(i).get_attribute("href") for i in range(cards.count())]
    assert hrefs == [f"{p.notebook}?lang=en" for p in shown]


def test_choosing_a_language_changes_labels_and_carries_to_the_next_page(
    notebook_page: Any,
) -> None:
    page = notebook_page("index.ipynb", wait_for=".mg-landing .mg-card")
    assert "Games" in page.locator(".mg-section").first.text_content()
    page.locator('.mg-langs a[data-lang="pl"]').click()
    page.wait_for_selector(".mg-landing .mg-card", timeout=90_000)
    page.wait_for_function(
        "() => document.querySelector('.mg-section')?.textContent.includes('Gry')")
    assert page.locator(".mg-header .mg-home").text_content() == "Gry matematyczne"
    page.locator('.mg-card[href^="halma.ipynb"]').click()
    page.wait_for_selector(".mg-halma .mg-start", timeout=90_000)
    assert "lang=pl" in page.url
    assert page.locator(".mg-header .mg-title").text_content() == "Halma"
    assert page.locator('.mg-langs a.mg-current').get_attribute("data-lang") == "pl"
