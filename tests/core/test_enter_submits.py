"""Enter in a form's text box: the button is pressed only after the browser's echo, so that
what was typed before Enter has arrived; the browser's answers are checked."""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import pytest

from mathgames.core.ui_widget import EnterSubmits


class Form:
    """A text box, a button that records the box's value, and the Enter helper; what the
    helper sends to the browser is kept in ``sent``."""

    def __init__(self) -> None:
        self.box = w.Text()
        self.pressed: list[str] = []
        self.button = w.Button(description="Join")
        self.button.on_click(lambda _b: self.pressed.append(self.box.value))
        self.enter = EnterSubmits(self.button, self.box)
        self.sent: list[Any] = []
        self.enter.send = self.sent.append  # type: ignore[method-assign]

    def key_enter(self) -> None:
        """The browser's message for Enter in the box (ipywidgets sends it at once)."""
        self.box._handle_custom_msg({"event": "submit"}, [])

    def click(self) -> None:
        """The browser's message for a click on the button (sent at once, too)."""
        self.button._handle_custom_msg({"event": "click"}, [])

    def browser_says(self, content: Any, buffers: list[Any] | None = None) -> None:
        self.enter._handle_custom_msg(content, buffers or [])


def test_enter_presses_the_button_once_the_echo_is_back() -> None:
    form = Form()
    form.box.value = "B"
    form.key_enter()
    assert form.sent == [{"type": "echo", "id": 1}] and form.pressed == []
    form.box.value = "Ben"  # the keys the browser held back come before the echo
    form.browser_says({"type": "echo", "id": 1})
    assert form.pressed == ["Ben"]
    form.browser_says({"type": "echo", "id": 1})  # a second view of the page answers too
    assert form.pressed == ["Ben"] and form.enter.rejected_messages == 0


def test_only_the_latest_enter_presses_and_only_an_enabled_button() -> None:
    form = Form()
    form.key_enter()
    form.key_enter()
    form.browser_says({"type": "echo", "id": 1})  # an older echo: the newer one is awaited
    assert form.pressed == []
    form.browser_says({"type": "echo", "id": 2})
    assert form.pressed == [""]
    form.button.disabled = True
    form.key_enter()
    form.browser_says({"type": "echo", "id": 3})
    assert form.pressed == [""]


@pytest.mark.parametrize("forged", [
    "echo", ["echo", 1], {"type": "click", "id": 1}, {"type": "echo"},
    {"type": "echo", "id": "1"}, {"type": "echo", "id": 1.0}, {"type": "echo", "id": True},
    {"type": "echo", "id": 7}, {"type": "echo", "id": 0},
])
def test_a_forged_answer_is_ignored(forged: Any) -> None:
    form = Form()
    form.key_enter()
    form.browser_says(forged)
    assert form.pressed == [] and form.enter.rejected_messages == 1
    assert form.enter.awaited == 1  # the real echo still presses the button
    form.browser_says({"type": "echo", "id": 1})
    assert form.pressed == [""]


def test_an_echo_with_binary_buffers_is_ignored() -> None:
    form = Form()
    form.key_enter()
    form.browser_says({"type": "echo", "id": 1}, [b"x"])
    assert form.pressed == [] and form.enter.rejected_messages == 1


def test_other_messages_of_the_text_box_do_nothing() -> None:
    form = Form()
    form.box._handle_custom_msg({"event": "focus"}, [])
    form.box._handle_custom_msg("submit", [])
    assert form.sent == [] and form.enter.awaited is None


def test_a_function_takes_the_buttons_place() -> None:
    box, called = w.Text(), []
    enter = EnterSubmits(lambda: called.append(box.value), box)
    enter.send = lambda _content: None  # type: ignore[method-assign]
    box.value = "T4KEY"
    box._handle_custom_msg({"event": "submit"}, [])
    enter.answer_echo()
    assert called == ["T4KEY"]


def test_a_click_in_the_browser_waits_for_the_echo_too() -> None:
    form = Form()
    form.box.value = "Be"
    form.click()
    assert form.sent == [{"type": "echo", "id": 1}] and form.pressed == []
    form.box.value = "Ben"  # the last keystrokes, held back, come before the echo
    form.browser_says({"type": "echo", "id": 1})
    assert form.pressed == ["Ben"]
    # a double click (two clicks before the first echo is back) presses once
    form.click()
    form.click()
    form.browser_says({"type": "echo", "id": 2})
    form.browser_says({"type": "echo", "id": 3})
    assert form.pressed == ["Ben", "Ben"]
    # a click forged on a disabled button presses nothing; click() from Python at once
    form.button.disabled = True
    form.click()
    form.browser_says({"type": "echo", "id": 4})
    assert form.pressed == ["Ben", "Ben"]
    form.button.disabled = False
    form.button.click()
    assert form.pressed == ["Ben", "Ben", "Ben"] and len(form.sent) == 4
    form.button._handle_custom_msg({"event": "focus"}, [])  # not a click: nothing
    assert len(form.sent) == 4 and form.enter.rejected_messages == 0
