"""Helpers for the lesson pages, which unfold one question at a time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def answer_up_to(page: Any, key: str | None = None, guess: str | None = None) -> None:
    """Answer the page's predictions in order ("Show the answer", or type ``guess``) until
    the cells tagged ``answer-<key>`` are visible; without a key, the whole lesson."""
    predicts = page.locator(".mg-lesson-predict")
    target = page.locator(f".celltag_answer-{key}").first if key else None
    reached = False
    for index in range(predicts.count()):
        predict = predicts.nth(index)
        if "mg-lesson-answered" not in (predict.get_attribute("class") or ""):
            box = predict.locator(".mg-lesson-guess input")
            if guess is not None and box.count():
                box.fill(guess)
                box.press("Enter")
            else:
                predict.locator("button.mg-lesson-show").click()
            page.wait_for_function(
                "e => e.classList.contains('mg-lesson-answered')",
                arg=predict.element_handle())
        reached = reached or f"mg-lesson-predict-{key}" in (predict.get_attribute("class") or "")
        if target is not None and reached:
            try:
                target.wait_for(state="visible", timeout=3_000)
                return
            except PlaywrightTimeout:   # it also waits for a later question (a driving one)
                continue


@pytest.fixture
def reach() -> Callable[..., None]:
    """``reach(page, key)``: the class answers every question up to ``key``'s part."""
    return answer_up_to
