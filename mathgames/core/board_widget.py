"""The one board widget every game draws on.

Python renders the board as SVG (a string) and handles every rule; the browser
side (``static/board.js``) only draws that SVG and forwards what the user does:
a click on an SVG element that carries ``data-cell="<id>"``, or a key press. The
front end is untrusted, so every message is validated here: an unknown cell, a
wrong type or an oversized payload is ignored with a logged warning and never
raises into the kernel.

The event API mirrors :class:`ipywidgets.Button`: register with
:meth:`BoardWidget.on_cell_click` / :meth:`BoardWidget.on_key`, and trigger from
Python (as tests do) with :meth:`BoardWidget.click_cell` / :meth:`BoardWidget.press_key`.

>>> board = BoardWidget(svg='<svg viewBox="0 0 2 1"><rect data-cell="a"/></svg>')
>>> board.cell_ids
frozenset({'a'})
>>> clicked = []
>>> board.on_cell_click(clicked.append)
>>> board.click_cell("a")
>>> clicked
['a']
>>> board.click_cell("zz")
Traceback (most recent call last):
...
mathgames.core.errors.InvalidMoveError: 'zz' is not a cell of this board
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from mathgames.core.errors import InvalidMoveError, quoted, shorten

__all__ = ["KEYS", "MAX_MESSAGE_CHARS", "MAX_STORED_CHARS", "BoardWidget"]

log = logging.getLogger("mathgames.board")

STATIC = Path(__file__).resolve().parent / "static"

#: Keys the front end forwards, besides single letters and digits.
KEYS = frozenset(
    {"ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter", "Escape", " ",
     "Backspace", "Delete", "+", "-"}
)
#: The longest cell id or key accepted from the front end.
MAX_MESSAGE_CHARS = 64
#: The longest stored game accepted back from the browser's local storage.
MAX_STORED_CHARS = 2_000_000

_CELL_ATTR = re.compile(r'data-cell="([^"]*)"')


def _is_key(key: object) -> bool:
    return isinstance(key, str) and (
        key in KEYS or (len(key) == 1 and key.isascii() and key.isalnum())
    )


class BoardWidget(anywidget.AnyWidget):
    """An SVG board that forwards clicks on cells and key presses to Python.

    Attributes synced with the browser:

    - ``svg``: the whole ``<svg>`` markup; give it a ``viewBox`` so it scales.
      Every element with ``data-cell="id"`` is clickable; elements with
      ``data-hover-for="id"`` are shown only while the pointer is over cell ``id``.
    - ``label``: the accessible name of the board.
    - ``announce``: a sentence for screen readers (a polite live region beside the
      board): set it after each move, refusal and result, in the page's language.
    - ``zoom``: 1 draws the board to fit; above 1 the picture grows by that factor
      inside a scrolling board (big enough for a finger on a phone).
    - ``storage_key`` / ``storage_value``: when a key is set, the browser keeps
      ``storage_value`` in its local storage under that key, and on the next page
      load sends the kept copy back (see :meth:`on_stored`). Set it before anything
      that shows the change: the browser applies changes in the order they are made,
      so a reload the moment a move shows still finds that move kept.
    """

    _esm = STATIC / "board.js"
    _css = STATIC / "board.css"

    svg = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("board").tag(sync=True)
    announce = traitlets.Unicode("").tag(sync=True)
    zoom = traitlets.Float(1.0).tag(sync=True)
    storage_key = traitlets.Unicode("").tag(sync=True)
    storage_value = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._click_handlers: list[Callable[[str], Any]] = []
        self._key_handlers: list[Callable[[str], Any]] = []
        self._stored_handlers: list[Callable[[str], Any]] = []
        self._stored_offered = False
        self.cell_ids: frozenset[str] = self._cells_in(self.svg)
        self.rejected_messages = 0
        self.on_msg(self._handle_message)

    @staticmethod
    def _cells_in(svg: str) -> frozenset[str]:
        return frozenset(unescape(cell) for cell in _CELL_ATTR.findall(svg))

    @traitlets.observe("svg")
    def _svg_changed(self, change: dict[str, Any]) -> None:
        self.cell_ids = self._cells_in(change["new"])

    # -- the Button-like API -------------------------------------------------
    def on_cell_click(self, callback: Callable[[str], Any], remove: bool = False) -> None:
        """Call ``callback(cell_id)`` when a cell is clicked (or stop, with ``remove``)."""
        _register(self._click_handlers, callback, remove)

    def on_key(self, callback: Callable[[str], Any], remove: bool = False) -> None:
        """Call ``callback(key)`` on a forwarded key press (``"ArrowUp"``, ``"Enter"``, ...)."""
        _register(self._key_handlers, callback, remove)

    def on_stored(self, callback: Callable[[str], Any], remove: bool = False) -> None:
        """Call ``callback(text)`` with the copy a browser kept under ``storage_key``."""
        _register(self._stored_handlers, callback, remove)

    def click_cell(self, cell: str) -> None:
        """Click a cell from Python, exactly as the browser would.

        Raises :class:`InvalidMoveError` for a cell that is not on the board.
        """
        if not isinstance(cell, str) or cell not in self.cell_ids:
            raise InvalidMoveError(f"{quoted(cell)} is not a cell of this board")
        for handler in list(self._click_handlers):
            handler(cell)

    def press_key(self, key: str) -> None:
        """Press a key from Python, exactly as the browser would.

        >>> BoardWidget().press_key("F5")
        Traceback (most recent call last):
        ...
        mathgames.core.errors.InvalidMoveError: 'F5' is not a key the board forwards
        """
        if not _is_key(key):
            raise InvalidMoveError(f"{quoted(key)} is not a key the board forwards")
        for handler in list(self._key_handlers):
            handler(key)

    def say(self, text: str) -> None:
        """Announce ``text`` to screen readers (the same words twice are heard twice).

        >>> board = BoardWidget()
        >>> board.say("a1: blue"); board.say("a1: blue"); board.announce
        'a1: blue\u00a0'
        """
        text = str(text)
        self.announce = text + "\u00a0" if text == self.announce else text

    def offer_stored(self, text: str) -> None:
        """Hand a kept copy to the ``on_stored`` handlers (what a reloaded page does)."""
        if not isinstance(text, str) or len(text) > MAX_STORED_CHARS:
            raise InvalidMoveError("the kept copy is not text of a sensible size")
        for handler in list(self._stored_handlers):
            handler(text)

    # -- the untrusted front end -------------------------------------------
    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Refuse state sent by the front end: the browser may draw, never decide.

        The JavaScript never sets a trait, so any ``update`` message from it is
        forged: it is ignored with a warning (Python-side changes do not pass here).
        """
        names = sorted(map(str, sync_data)) if isinstance(sync_data, dict) else []
        keys = shorten(", ".join(names), 80)
        self._reject(f"the front end may not set traits ({keys})")

    def _reject(self, why: str) -> None:
        self.rejected_messages += 1
        log.warning("board widget ignored a message from the browser: %s", why)

    def _handle_message(self, _widget: Any, content: Any, buffers: Any) -> None:
        try:
            self._dispatch(content, buffers)
        except Exception:  # a handler's bug must not break the kernel's comm
            log.exception("board widget: a handler failed on a browser message")

    def _dispatch(self, content: Any, buffers: Any) -> None:
        if buffers:
            return self._reject("binary buffers are not expected")
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            return self._reject(f"not a message object: {shorten(str(content), 80)!r}")
        kind = content["type"]
        if kind == "click":
            cell = content.get("cell")
            if not isinstance(cell, str) or len(cell) > MAX_MESSAGE_CHARS:
                return self._reject(f"click with a bad cell: {shorten(str(cell), 80)!r}")
            if cell not in self.cell_ids:
                return self._reject(f"click on unknown cell {quoted(cell)}")
            self.click_cell(cell)
        elif kind == "key":
            key = content.get("key")
            if not _is_key(key) or len(key) > MAX_MESSAGE_CHARS:
                return self._reject(f"unknown key {shorten(str(key), 80)!r}")
            self.press_key(key)
        elif kind == "stored":
            data, key = content.get("data"), content.get("key")
            if key != self.storage_key or not self.storage_key:
                return self._reject("a kept copy for another storage key")
            if not isinstance(data, str) or len(data) > MAX_STORED_CHARS:
                return self._reject("a kept copy that is not text of a sensible size")
            if self._stored_offered:
                return None  # a second view of the same widget: offered already
            self._stored_offered = True
            self.offer_stored(data)
        else:
            self._reject(f"unknown message type {quoted(kind)}")
        return None


def _register(handlers: list[Callable[[str], Any]], callback: Callable[[str], Any],
              remove: bool) -> None:
    if remove:
        if callback in handlers:
            handlers.remove(callback)
    elif callback not in handlers:
        handlers.append(callback)
