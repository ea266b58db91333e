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


def _announced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ``comm_open`` messages widgets send from now on (ids of their comms)."""
    import comm

    sent: list[str] = []
    plain = comm.DummyComm.publish_msg

    def publish_msg(self: comm.DummyComm, msg_type: str, *args: object, **kwargs: object) -> None:
        if msg_type == "comm_open":
            sent.append(self.comm_id)
        plain(self, msg_type, *args, **kwargs)

    monkeypatch.setattr(comm.DummyComm, "publish_msg", publish_msg)
    return sent


@pytest.mark.parametrize("fresh_looks", [False, True], ids=["looks made", "looks anew"])
def test_a_served_page_not_yet_asked_announces_no_widget_and_still_hears_them(
        fresh_looks: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's server runs a page's cells before its browser connects, and the browser asks
    for every state at once: until it asks, a page's widgets are registered unannounced, the
    shared looks made for them too. A message from the page to one of them reaches it."""
    from comm import get_comm_manager
    from ipywidgets.widgets.widget import _instances

    from mathgames.core.served import SERVED_PAGE_VARIABLE

    monkeypatch.setenv(SERVED_PAGE_VARIABLE, "1")
    monkeypatch.setattr(w.Widget, "_control_comm", None)
    if fresh_looks:  # as in a new kernel: every shared look is made for this page
        monkeypatch.setattr(widget_looks, "_comm_manager", lambda: object())
    sent = _announced(monkeypatch)
    page = JoinPage()
    widgets = _tree(page)
    assert sent == []
    manager = get_comm_manager()
    assert all(manager.get_comm(widget.model_id) is widget.comm for widget in widgets)
    # the page's request for every state makes no widget (a layout made while ipywidgets
    # walked its widgets failed the request: "dictionary changed size during iteration")
    known = set(_instances)
    for widget in widgets:  # as ipywidgets' answer to the page's request reads each one
        widget.get_state()
    assert set(_instances) == known
    manager.comm_msg(None, None, {"content": {"comm_id": page.name_input.model_id, "data": {
        "method": "update", "state": {"value": "Ann"}, "buffer_paths": []}}, "buffers": []})
    assert page.name_input.value == "Ann"


@pytest.mark.parametrize("case", ["asked", "not served"])
def test_a_page_that_asked_or_a_notebook_announces_every_widget(
        case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the page has asked for the states (its control comm is open), and in JupyterLab,
    Notebook, Voila on its own or the static site, every widget opens as usual."""
    from mathgames.core.served import SERVED_PAGE_VARIABLE

    if case == "asked":
        monkeypatch.setenv(SERVED_PAGE_VARIABLE, "1")
        monkeypatch.setattr(w.Widget, "_control_comm", object())
    else:
        monkeypatch.delenv(SERVED_PAGE_VARIABLE, raising=False)
    sent = _announced(monkeypatch)
    widgets = _tree(JoinPage())
    own = {widget.model_id for widget in widgets if not isinstance(widget, SharedStyleModel)}
    assert own <= set(sent) <= {widget.model_id for widget in widgets}  # shared: maybe earlier
    assert len(sent) == len(set(sent))


class _ControlComm:
    """The page's control comm, as the kernel holds it: what the kernel sends on it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []

    def send(self, data: dict[str, object], buffers: object = None) -> None:
        self.sent.append(data)


def _request_states(monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, object], dict[str, int]]:
    """The answer to a page's request for every state, and how often each state was read."""
    reads: dict[str, int] = {}
    plain = w.Widget.get_state

    def counted(self: w.Widget, *args: object, **kwargs: object) -> dict[str, object]:
        if self.comm is not None:  # (a widget made meanwhile reads its state to open)
            reads[self.model_id] = reads.get(self.model_id, 0) + 1
        return plain(self, *args, **kwargs)

    control = _ControlComm()
    monkeypatch.setattr(w.Widget, "_control_comm", control)
    monkeypatch.setattr(w.Widget, "get_state", counted)
    w.Widget._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})
    monkeypatch.setattr(w.Widget, "get_state", plain)
    assert len(control.sent) == 1 and control.sent[0]["method"] == "update_states"
    return control.sent[0], reads


@pytest.mark.parametrize("served", [True, False], ids=["served page", "notebook"])
def test_a_served_page_gets_every_state_read_once_and_the_same_answer(
        served: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """ipywidgets read every state twice to answer the page's request (the first time for a
    summary it dropped); a served page's kernel reads each once and sends the same answer."""
    from ipywidgets.widgets import widget

    from mathgames.core.served import SERVED_PAGE_VARIABLE

    monkeypatch.setattr(widget, "_instances", {})  # this page's widgets only, as in its kernel
    monkeypatch.delenv(SERVED_PAGE_VARIABLE, raising=False)
    page = JoinPage()
    plain_answer, plain_reads = _request_states(monkeypatch)
    if served:
        monkeypatch.setenv(SERVED_PAGE_VARIABLE, "1")
    answer, reads = _request_states(monkeypatch)
    assert answer == plain_answer
    assert page.name_input.model_id in answer["states"]  # type: ignore[operator]
    assert set(reads) == set(widget._instances)
    assert set(plain_reads.values()) == {2}
    assert set(reads.values()) == ({1} if served else {2})


def test_a_widget_made_while_the_states_are_read_is_in_the_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ipywidgets.widgets import widget

    from mathgames.core.served import SERVED_PAGE_VARIABLE

    monkeypatch.setattr(widget, "_instances", {})
    sprouts: list[w.Widget] = []

    class Sprouting(w.HTML):
        def get_state(self, *args: object, **kwargs: object) -> dict[str, object]:
            if w.Widget._control_comm is not None and not sprouts:  # the page asks
                sprouts.append(w.HTML("made while the page reads"))
            return super().get_state(*args, **kwargs)

    monkeypatch.setenv(SERVED_PAGE_VARIABLE, "1")
    Sprouting("reads make")
    answer, reads = _request_states(monkeypatch)
    assert sprouts and sprouts[0].model_id in answer["states"]  # type: ignore[operator]
    assert reads[sprouts[0].model_id] == 1
