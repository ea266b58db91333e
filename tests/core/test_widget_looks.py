"""A page's widgets built together: shared looks are per kernel and frozen, and widgets
open once, with their final state, after the widgets they name."""

from __future__ import annotations

import ipywidgets as w
import pytest

from mathgames.core import widget_looks
from mathgames.core.widget_looks import (
    SharedLookError,
    SharedStyleModel,
    built_together,
    opened_together,
    shared_look,
)
from mathgames.halma.widget import HalmaApp
from mathgames.matematiko.widget import MatematikoApp
from mathgames.pages.join import JoinPage
from mathgames.triomino.widget import TriominoApp


def _tree(widget: w.Widget) -> list[w.Widget]:
    """``widget`` and every widget its state names, each once."""
    seen: dict[int, w.Widget] = {}
    todo = [widget]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen[id(item)] = item
        todo.extend(widget_looks._references(item))
    return list(seen.values())


@pytest.mark.parametrize("make", [MatematikoApp, HalmaApp, TriominoApp, JoinPage],
                         ids=["matematiko", "halma", "triomino", "join"])
def test_a_page_opens_every_widget_once_with_no_update(make, monkeypatch) -> None:
    sent: list[str] = []
    plain = w.Widget.send_state

    def send_state(self: w.Widget, key: object = None) -> None:
        if self.comm is not None:  # a message to the page (before it opens, nothing is sent)
            sent.append(f"{type(self).__name__} {key}")
        plain(self, key)

    monkeypatch.setattr(w.Widget, "send_state", send_state)
    app = make()
    widgets = _tree(app)
    assert sent == []  # every property set while it was built went out in its comm_open
    assert all(widget.comm is not None for widget in widgets)
    shared = [widget for widget in widgets if isinstance(widget, SharedStyleModel)]
    assert shared and len(shared) < len(widgets) / 5


def test_a_shared_look_is_frozen_and_a_widget_that_changes_its_own_has_its_own() -> None:
    app = HalmaApp()
    for widget in _tree(app):
        if isinstance(widget, SharedStyleModel):
            name = next(key for key in sorted(widget.keys) if not key.startswith("_"))
            with pytest.raises(SharedLookError):
                setattr(widget, name, getattr(widget, name))
    app.ask_new_game()
    app.start()
    app.show_setup()  # shows and hides parts with their own layouts: no error
    assert app.setup.layout.display is None


def test_each_kernel_has_its_own_shared_looks(monkeypatch) -> None:
    first = shared_look(w.Layout, width="auto")
    assert shared_look(w.Layout, width="auto") is first
    monkeypatch.setattr(widget_looks, "_comm_manager", lambda: object())  # another kernel
    assert shared_look(w.Layout, width="auto") is not first


def test_a_closed_shared_look_is_made_anew() -> None:
    first = shared_look(w.Layout, width="7em")
    first.close()
    again = shared_look(w.Layout, width="7em")
    assert again is not first and again.comm is not None


def test_a_widget_made_before_its_children_opens_after_them() -> None:
    opened: list[str] = []
    with opened_together():
        box = w.VBox()
        box.children = [w.HTML("a"), w.HTML("b")]
        label = w.HTML("c")
        for widget in (box, *box.children, label):
            widget.observe(lambda c, widget=widget: opened.append(widget), "comm")
    assert opened.index(box) > opened.index(box.children[0])
    assert opened.index(box) > opened.index(box.children[1])


def test_nothing_is_shared_outside_a_page_being_built() -> None:
    with built_together():
        inside = w.HTML("a")
    outside = w.HTML("b")
    assert isinstance(inside.layout, SharedStyleModel)
    assert not isinstance(outside.layout, SharedStyleModel)
    outside.layout.display = "none"  # its own, as ipywidgets makes it
