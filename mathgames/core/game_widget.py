"""What every game app shares: the set-up panel and the question before a game is thrown
away, labels that follow the language (with a guard against the events a relabelling
fires), undo that steps back over the bots' moves to the human's last turn, and the save
in its envelope (a JSON object whose first key names the game) that the browser keeps.

A game app (``HalmaApp``, ``MatematikoApp``, ``TriominoApp``) is a :class:`GameApp`: it
builds its widgets, hands the set-up panel and the game's box to :meth:`GameApp._mount`
and fills in the hooks (``_game_under_way``, ``_set_labels``, ``_save_fields``,
``_load_fields``); a game of turns with bots is also an :class:`UndoPastBots` (``_can_undo``,
``_undo_step``, ``_bot_to_move``, ...). A hook left out fails when the app is made.

In this example two players count up in turn, and the second is a bot:

>>> class Counter(UndoPastBots, GameApp):
...     save_kind = "counter"
...     def __init__(self):
...         self.moves = None
...         self.board, self.message = BoardWidget(), w.HTML()
...         self.confirm = self._new_game_confirm()
...         self.setup, self.play = w.VBox(), w.VBox([self.confirm, self.board])
...         self._mount([self.setup, self.play], self.setup, self.play, "mg-counter")
...     def _game_under_way(self): return bool(self.moves)
...     def _set_labels(self): pass
...     def _refresh(self): self._keep_copy()
...     def _save_fields(self): return None if self.moves is None else {"moves": self.moves}
...     def _load_fields(self, data): self.moves = data["moves"]; self._refresh()
...     def _can_undo(self): return bool(self.moves)
...     def _undo_step(self): self.moves.pop()
...     def _bot_to_move(self): return len(self.moves) % 2 == 1
...     def _nothing_to_undo(self): return "Nothing to undo."
...     def _say_error(self, text): self.message.value = text
>>> app = Counter()
>>> app.load('{"game": "counter", "moves": [1, 2, 3, 4]}'); app.board.storage_value
'{"game": "counter", "moves": [1, 2, 3, 4]}'
>>> app.undo(); app.moves, app.board.storage_value    # the bot's 4, then the human's 3
([1, 2], '{"game": "counter", "moves": [1, 2]}')
>>> app.ask_new_game(); app.confirm.layout.display is None   # a game under way: asked
True
>>> app.confirm.yes_button.click(); app.setup.layout.display, app.play.layout.display
(None, 'none')
>>> app.undo(); app.undo(); app.moves, app.message.value
([], 'Nothing to undo.')
"""

from __future__ import annotations

import abc
import json
from collections.abc import Iterable
from typing import Any, ClassVar

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import CorruptSaveError, quoted, read_save
from mathgames.core.i18n import on_language_change, translator
from mathgames.core.ui_widget import Confirm, fill_tooltips
from mathgames.core.widget_looks import BuiltTogether, own_layout

__all__ = ["GameApp", "UndoPastBots", "relabel_options"]

_ = translator("core")


def relabel_options(select: Any, options: list[tuple[str, Any]], default: Any = None) -> None:
    """Give a selection control new (translated) option labels and keep its choice (or,
    when nothing was chosen, choose ``default`` if there is one).

    Replacing the options fires the control's ``value`` events: call it inside
    :meth:`GameApp._set_labels`, where :attr:`GameApp.relabelling` is true.

    >>> pick = w.Dropdown(options=[("two", 2), ("three", 3)], value=3)
    >>> relabel_options(pick, [("dva", 2), ("tři", 3)]); pick.value, pick.label
    (3, 'tři')
    """
    keep = select.value
    select.options = options
    value = keep or default
    if value is not None:
        select.value = value


class _AbstractWidget(BuiltTogether, abc.ABCMeta):
    """The widgets' metaclass with abstract methods: a game app that misses one of
    :class:`GameApp`'s hooks fails when it is made, not when the hook is first called.

    An app's widgets are made with :func:`~mathgames.core.widget_looks.built_together`:
    those that never change their layout or style share one model of each, and each opens
    its comm once the app is built, with its final state."""


class GameApp(w.VBox, metaclass=_AbstractWidget):
    """The base of a game app: a set-up panel, then the game (see the module's example).

    Subclasses set :attr:`board` (the :class:`BoardWidget` whose storage the browser
    keeps), :attr:`message` (the line for refusals) and :attr:`confirm`
    (:meth:`_new_game_confirm`) before :meth:`_mount`. The save's envelope is
    described by the class attributes :attr:`save_key`, :attr:`save_kind`,
    :attr:`save_version`, :attr:`save_refused`, :attr:`save_ascii` and
    :attr:`save_compact`.
    """

    #: The key of the save's first field, which names the kind of save ...
    save_key: ClassVar[str] = "game"
    #: ... and that field's value.
    save_kind: ClassVar[str] = ""
    #: The save's ``version`` field (the second), or None for a save without one.
    save_version: ClassVar[int | None] = None
    #: The CorruptSaveError's message for a text that is not this kind of save.
    save_refused: ClassVar[str] = "not a saved game"
    #: Whether the save's JSON escapes every non-ASCII character (``json.dumps``'s default).
    save_ascii: ClassVar[bool] = True
    #: Whether the save's JSON leaves out the spaces after ``,`` and ``:``.
    save_compact: ClassVar[bool] = False

    board: BoardWidget
    message: w.HTML
    confirm: Confirm
    setup: w.Box
    howto: Any = None
    #: True while :meth:`_set_labels` runs: value events then come from new labels.
    relabelling: bool = False

    def __repr__(self) -> str:
        """Short (``HalmaApp()``): a notebook shows an app's repr's first 110 characters,
        and ipywidgets' own repr walked all of its widgets for them."""
        return f"{type(self).__name__}()"

    # -- building --------------------------------------------------------------------------
    def _new_game_confirm(self) -> Confirm:
        """The question bar before a game under way is thrown away (yes: :meth:`show_setup`)."""
        return Confirm(lambda: _("Start a new game? This game will be lost."), self.show_setup)

    def _mount(self, children: Iterable[w.Widget], setup: w.Box, play_box: w.Box,
               css_class: str) -> None:
        """Make this box of ``children``: ``setup`` is the set-up panel, ``play_box`` the
        game's box (one of the two is shown at a time). The app carries ``css_class`` and
        ``mg-app`` and follows language changes from now on."""
        self.setup = setup
        self._play_box = play_box
        own_layout(setup), own_layout(play_box)  # shown and hidden in turn
        super().__init__(list(children))
        self.add_class(css_class)
        self.add_class("mg-app")
        on_language_change(self._language_changed)

    # -- the set-up panel ------------------------------------------------------------------
    def ask_new_game(self) -> None:
        """New game: ask first while a game is under way (it would be lost)."""
        if self._game_under_way():
            self.confirm.ask()
            self.board.say(_("Start a new game? This game will be lost."))
        else:
            self.show_setup()

    def show_setup(self) -> None:
        """Back to the set-up panel (the game stays until Start)."""
        self.confirm.hide()
        self.setup.layout.display = None
        self._play_box.layout.display = "none"
        self._setup_shown()

    def _show_game(self) -> None:
        """Hide the set-up panel and show the game's box."""
        self.setup.layout.display = "none"
        self._play_box.layout.display = None

    @abc.abstractmethod
    def _game_under_way(self) -> bool:
        """Whether a new game would throw away a game under way (then it asks first)."""

    def _setup_shown(self) -> None:
        """What else the game does when its set-up panel shows (nothing by default)."""

    # -- labels ----------------------------------------------------------------------------
    def _language_changed(self, _code: str) -> None:
        self._relabel()
        self._refresh()

    def _relabel(self) -> None:
        """Every label in the current language: :meth:`_set_labels` with
        :attr:`relabelling` true, then the "How to play" panel and the tooltips."""
        self.relabelling = True
        try:
            self._set_labels()
        finally:
            self.relabelling = False
        if self.howto is not None:
            self.howto.refresh()
        fill_tooltips(self)

    @abc.abstractmethod
    def _set_labels(self) -> None:
        """Set the game's own labels in the current language."""

    @abc.abstractmethod
    def _refresh(self) -> None:
        """Draw the game again (nothing before a game)."""

    # -- saving ----------------------------------------------------------------------------
    def save(self) -> str:
        """The game as JSON in its envelope (``""`` before a game), for resuming after a
        reload: what :meth:`load` reads."""
        fields = self._save_fields()
        if fields is None:
            return ""
        head: dict[str, Any] = {self.save_key: self.save_kind}
        if self.save_version is not None:
            head["version"] = self.save_version
        separators = (",", ":") if self.save_compact else None
        return json.dumps({**head, **fields}, ensure_ascii=self.save_ascii,
                          separators=separators)

    def load(self, text: str) -> None:
        """Resume a game saved by :meth:`save`; CorruptSaveError (nothing changed) if bad."""
        self._load_fields(self._open_save(text))

    def _open_save(self, text: str) -> dict[str, Any]:
        """The save's fields, once its envelope is checked (CorruptSaveError if not)."""
        data = read_save(text)
        if not isinstance(data, dict) or data.get(self.save_key) != self.save_kind:
            raise CorruptSaveError(self.save_refused)
        if self.save_version is not None and data.get("version") != self.save_version:
            raise CorruptSaveError(f"unknown save version {quoted(data.get('version'))}")
        return data

    def _keep_copy(self) -> None:
        """Hand the browser the save to keep (a reload resumes it). Call it first when a
        move shows: a reload must find the move kept (see BoardWidget)."""
        self.board.storage_value = self.save()

    @abc.abstractmethod
    def _save_fields(self) -> dict[str, Any] | None:
        """The save's fields after the envelope's, or None when there is no game."""

    @abc.abstractmethod
    def _load_fields(self, data: dict[str, Any]) -> None:
        """Check a save's fields (CorruptSaveError, nothing changed) and resume it."""


class UndoPastBots(abc.ABC):
    """Undo for a game of turns with bots (mixed into a :class:`GameApp`): take back the
    last move, and the bots' moves after it, back to a human's turn."""

    def undo(self) -> None:
        """Take back the last move, and the bots' moves after it (back to a human's turn)."""
        if not self._can_undo():
            self._say_error(self._nothing_to_undo())
            return
        self._undo_step()
        while self._can_undo() and self._bot_to_move():
            self._undo_step()
        self._undone()

    @abc.abstractmethod
    def _can_undo(self) -> bool:
        """Whether there is a move to take back."""

    @abc.abstractmethod
    def _undo_step(self) -> None:
        """Take back one move."""

    @abc.abstractmethod
    def _bot_to_move(self) -> bool:
        """Whether undo goes on: a bot is to move (and a human plays, to stop at)."""

    @abc.abstractmethod
    def _nothing_to_undo(self) -> str:
        """The refusal when there is nothing to undo, in the current language."""

    def _undone(self) -> None:
        """After an undo: clear choices, say so, draw."""
        self._refresh()  # type: ignore[attr-defined]  # a GameApp's

    @abc.abstractmethod
    def _say_error(self, text: str) -> None:
        """Show a refusal and say it to screen readers."""
