"""One ``Layout`` and one style model a page for the widgets that never change theirs.

ipywidgets gives every widget its own ``Layout`` model and, for most kinds, its own
style model (``ButtonStyle``, ``HTMLStyle``, ...), even when the widget never sets
one. Each model is a comm: a ``comm_open`` message built and sent by the page's
kernel, read twice by the server, and a state the page must receive. A game page had
137 to 207 models, and more than half of them were these empty ones.

Inside :func:`shared_looks`, a widget made without a ``layout=`` (or ``style=``)
argument gets the page's one shared, empty model of that kind instead of a new one.
A shared model is *frozen*: setting any of its properties raises
:class:`SharedLookError`, since it would change every widget that shares it. A widget
whose layout or style the code changes later must be given its own
(``layout=w.Layout()``) where it is made. The shared models belong to the kernel that
made them: a new kernel (a test's new comm manager), or a closed model, gets new ones.

>>> with shared_looks():
...     first, second = w.HTML("a"), w.Button(description="b")
...     third = w.HTML("c", layout=w.Layout(width="auto"))
>>> first.layout is second.layout, first.layout is third.layout
(True, False)
>>> first.style is w.HTML("d").style, isinstance(first.style, SharedStyleModel)
(False, True)
>>> first.layout.display = "none"
Traceback (most recent call last):
...
mathgames.core.widget_looks.SharedLookError: this Layout is shared by many widgets: \
give the widget its own (layout=w.Layout()) to set its display
>>> w.HTML("outside").layout is first.layout
False

In a page of the app's server that has not yet asked for its widgets (:func:`unasked`),
the widgets built together are registered in the kernel without a ``comm_open`` message:
the server runs the page's cells before the browser connects, and the browser then asks
for every widget's state at once. A game page's kernel sends 17 to 19 messages instead of
85 to 112. Everywhere else (JupyterLab, Notebook, Voila on its own, the static site, a
page that has asked) every widget is announced as ipywidgets does.
"""

from __future__ import annotations

import contextlib
import contextvars
import weakref
from collections.abc import Iterator
from typing import Any

import ipywidgets as w
from comm import create_comm, get_comm_manager
from ipywidgets.widgets import widget as ipywidgets_widget
from ipywidgets.widgets.trait_types import InstanceDict
from ipywidgets.widgets.widget_description import DescriptionStyle
from traitlets import Instance

from mathgames.core.served import served_page

__all__ = ["BuiltTogether", "DescriptionStyle", "SharedLookError", "SharedStyleModel",
           "built_together", "opened_together", "own_layout", "shared_look", "shared_looks",
           "unasked", "warm_up"]


class SharedLookError(TypeError):
    """A property of a shared (frozen) layout or style model was set."""


class SharedStyleModel:
    """The frozen mixin of a shared model: its properties are fixed once it is made."""

    _frozen = False

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen and not name.startswith("_") and name in self.keys:
            kind = "layout" if isinstance(self, w.Layout) else "style"
            raise SharedLookError(
                f"this {type(self).__mro__[2].__name__} is shared by many widgets: give the "
                f"widget its own ({kind}=w.{type(self).__mro__[2].__name__}()) to set its "
                f"{name}")
        super().__setattr__(name, value)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A page never changes a layout or a style; if one tries, the model stays."""


_SHARING: contextvars.ContextVar[bool] = contextvars.ContextVar("mathgames_shared_looks",
                                                                 default=False)
_frozen_kinds: dict[type, type] = {}
_made: dict[tuple[Any, ...], tuple[object, w.Widget]] = {}


def _comm_manager() -> object:
    """The kernel's comm manager (a test's new one stands for a new kernel)."""
    return get_comm_manager()


def shared_look(kind: type[w.Widget], **properties: str) -> w.Widget:
    """The kernel's one frozen model of ``kind`` (``w.Layout``, ``w.ButtonStyle``...) with
    ``properties``, for widgets that never change theirs (hidden labels, say).

    >>> shared_look(w.Layout) is shared_look(w.Layout)
    True
    >>> hidden = shared_look(w.Layout, display="none")
    >>> hidden.display, hidden is shared_look(w.Layout, display="none")
    ('none', True)
    """
    key = (kind, *sorted(properties.items()))
    manager = _comm_manager()
    made = _made.get(key)
    if made is not None and made[0] is manager and (
            made[1].comm is not None or any(made[1] is p for p in _PENDING.get() or ())):
        return made[1]  # open, or to be opened: not closed
    model = _frozen_kind(kind)(**properties)
    model._frozen = True
    _made[key] = (manager, model)
    return model


def _frozen_kind(kind: type[w.Widget]) -> type[w.Widget]:
    """The class of ``kind``'s shared models (made once a process: 0.2 ms a class)."""
    frozen = _frozen_kinds.get(kind)
    if frozen is None:
        frozen = _frozen_kinds[kind] = type(f"Shared{kind.__name__}", (SharedStyleModel, kind),
                                            {"__module__": __name__})
    return frozen


def _looks(kind: type = w.widgets.widget_style.Style) -> Iterator[type]:
    """``kind`` and every kind of style model derived from it."""
    yield kind
    for derived in kind.__subclasses__():
        if not issubclass(derived, SharedStyleModel):
            yield from _looks(derived)


def warm_up() -> None:
    """Make now what every page's first shared looks would make: the class of each kind's
    shared models (``SharedLayout``, ``SharedButtonStyle``...), for every kind ipywidgets
    has. The kernel template (:mod:`mathgames.server.kernel_forks`) calls it before it
    forks; each kernel made about seven such classes for itself.

    >>> warm_up(); w.Layout in _frozen_kinds and w.ButtonStyle in _frozen_kinds
    True
    """
    for kind in (w.Layout, *_looks()):
        _frozen_kind(kind)


def own_layout(widget: w.DOMWidget) -> w.Layout:
    """``widget``'s layout, made its own first if it shares one (for code that changes it).

    >>> with shared_looks():
    ...     box = w.VBox()
    >>> own_layout(box).display = "none"
    >>> box.layout.display, isinstance(box.layout, SharedStyleModel)
    ('none', False)
    """
    if isinstance(widget.layout, SharedStyleModel):
        widget.layout = w.Layout(**{key: getattr(widget.layout, key)
                                    for key in widget.layout.keys if not key.startswith("_")})
    return widget.layout


def _is_look(kind: object) -> bool:
    return isinstance(kind, type) and (issubclass(kind, w.Layout)
                                       or issubclass(kind, w.widgets.widget_style.Style))


_plain_default = InstanceDict.make_dynamic_default


def _default_or_shared(self: InstanceDict) -> Any:
    if (_SHARING.get() and not self.default_args and not self.default_kwargs
            and _is_look(self.klass)):
        return shared_look(self.klass)
    return _plain_default(self)


InstanceDict.make_dynamic_default = _default_or_shared


@contextlib.contextmanager
def shared_looks() -> Iterator[None]:
    """Widgets made in this block share their kernel's empty layout and style models."""
    token = _SHARING.set(True)
    try:
        yield
    finally:
        _SHARING.reset(token)


# -- opened together -------------------------------------------------------------------

_PENDING: contextvars.ContextVar[list[w.Widget] | None] = contextvars.ContextVar(
    "mathgames_opened_together", default=None)
_plain_open = w.Widget.open


def _open_or_wait(self: w.Widget) -> None:
    pending = _PENDING.get()
    if pending is not None and self.comm is None:
        pending.append(self)  # opened with its final state when the block ends
        return
    _plain_open(self)


w.Widget.open = _open_or_wait


def _references(widget: w.Widget) -> Iterator[w.Widget]:
    """The widgets whose ids ``widget``'s state names (its children, layout, style...)."""
    values = widget._trait_values  # as set: a default not made yet is made (and opened) later
    for key in widget.keys:
        value = values.get(key)
        for item in value if isinstance(value, list | tuple) else (value,):
            if isinstance(item, w.Widget):
                yield item


def unasked() -> bool:
    """Whether this kernel runs a served page that has not yet asked for its widgets.

    The app's server runs a page's cells before the page's browser connects (see
    :mod:`mathgames.core.served`); the browser then asks for every widget's state at once
    (ipywidgets' control comm). Until it asks, a ``comm_open`` message reaches no browser:
    only the server reads it, and drops it. A game page's 73 to 100 of them were most of
    its kernel's messages, and of the server's reading.
    """
    return served_page() and w.Widget._control_comm is None


_plain_answer = w.Widget._handle_control_comm_msg.__func__


def _answer_in_one_pass(cls: type[w.Widget], msg: dict[str, Any]) -> None:
    """A served page's request for every widget's state, answered with each state read
    once. ipywidgets read every state twice, the first time for a summary it then dropped:
    half of the request's work in the kernel. A widget made while the states are read is
    included. Any other request, and any request outside a served page, goes to
    ipywidgets."""
    data = msg["content"]["data"]
    if data.get("method") != "request_states" or not served_page() \
            or cls._control_comm is None:
        _plain_answer(cls, msg)
        return
    instances = ipywidgets_widget._instances
    states: dict[str, Any] = {}
    while fresh := [widget for key, widget in list(instances.items()) if key not in states]:
        for widget in fresh:
            states[widget.model_id] = {
                "model_name": widget._model_name,
                "model_module": widget._model_module,
                "model_module_version": widget._model_module_version,
                "state": widget.get_state(drop_defaults=False),
            }
    states, buffer_paths, buffers = ipywidgets_widget._remove_buffers(states)
    cls._control_comm.send({"method": "update_states", "states": states,
                            "buffer_paths": buffer_paths}, buffers=buffers)


w.Widget._handle_control_comm_msg = classmethod(_answer_in_one_pass)

_synced: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def _synced_names(self: w.Widget) -> list[str]:
    """A widget's synced properties (its ``keys``), found once for each class.

    ipywidgets went through every trait of the class for every widget it made: a game
    page's 73 widgets spent more than half as long on that as on reading their states
    (cProfile of the kernels). A class made with more
    traits (``add_traits``, as every anywidget) is a new class, so it is looked at anew;
    the classes are held weakly, so an ended widget's class can go.

    >>> names = w.Button().keys
    >>> "description" in names, names == list(w.Button().traits(sync=True))
    (True, True)
    >>> w.Button().keys is w.Button().keys  # each widget its own list, as before
    False
    """
    kind = type(self)
    names = _synced.get(kind)
    if names is None:
        names = _synced[kind] = tuple(self.traits(sync=True))
    return list(names)


w.Widget.__dict__["_default_keys"].func = _synced_names

_widget_properties: dict[type, tuple[str, ...]] = {}


def _made_on_first_read(kind: type[w.Widget]) -> tuple[str, ...]:
    """The properties of ``kind`` that hold a widget, which ipywidgets makes (as a widget's
    ``layout`` or ``style``) when they are first read: reading a widget's state reads them.

    >>> _made_on_first_read(w.Button)
    ('layout', 'style')
    """
    names = _widget_properties.get(kind)
    if names is None:
        names = _widget_properties[kind] = tuple(sorted(
            name for name, trait in kind.class_traits(sync=True).items()
            if isinstance(trait, Instance) and isinstance(trait.klass, type)
            and issubclass(trait.klass, w.Widget)))
    return names


def _open_quietly(widget: w.Widget) -> None:
    """Give ``widget`` its comm, registered in the kernel, without announcing it: the page
    reads its state when it asks for all of them, and speaks to it by its id."""
    channel = create_comm(target_name="jupyter.widget", primary=False,
                          **({"comm_id": widget._model_id} if widget._model_id else {}))
    get_comm_manager().register_comm(channel)
    # ipykernel's comm learns its kernel when it first sends, and until it knows it,
    # ipywidgets sends nothing through it: no update, no reply to the page
    if getattr(channel, "kernel", False) is None:
        from ipykernel.kernelbase import Kernel

        if Kernel.initialized():
            channel.kernel = Kernel.instance()
    widget.comm = channel


def _open_with_references(widget: w.Widget, quietly: bool) -> None:
    if widget.comm is not None:
        return
    # made now (each waits in the block, and opens as a reference), as reading the widget's
    # state would; quietly, not while the page reads every state
    for name in _made_on_first_read(type(widget)):
        getattr(widget, name)
    for other in _references(widget):  # the page must know them before it reads this one
        _open_with_references(other, quietly)
    if widget.comm is None:
        if quietly:
            _open_quietly(widget)
        else:
            _plain_open(widget)


@contextlib.contextmanager
def opened_together() -> Iterator[None]:
    """Widgets made in this block open their comm when it ends, with their state then.

    Each widget's ``comm_open`` message carries its whole state, and every property set
    after it (a label, a CSS class, the options of a list) is one more ``update`` message
    for the kernel to send and the server to read: a game app sent more updates (115 for
    Halma) than it opened widgets (99). Opened at the end, a widget's first message is
    its final state and no update follows. A widget opens after the widgets it names.

    >>> with opened_together():
    ...     box = w.VBox()
    ...     box.children = [w.HTML("a")]
    ...     waiting = box.comm is None
    >>> waiting, box.comm is not None, box.children[0].comm is not None
    (True, True, True)
    """
    if _PENDING.get() is not None:  # within another such block: that one opens them
        yield
        return
    pending: list[w.Widget] = []
    token = _PENDING.set(pending)
    try:
        yield
    finally:
        quietly = unasked()
        try:
            for widget in pending:
                _open_with_references(widget, quietly)
        finally:
            _PENDING.reset(token)


@contextlib.contextmanager
def built_together() -> Iterator[None]:
    """:func:`shared_looks` and :func:`opened_together`: how a page's widgets are built."""
    with shared_looks(), opened_together():
        yield


class BuiltTogether(type(w.Widget)):  # type: ignore[misc]
    """The metaclass of a page's widget whose making is :func:`built_together` (a game app,
    the join page): ``class JoinPage(w.VBox, metaclass=BuiltTogether)``."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        with built_together():
            return super().__call__(*args, **kwargs)
