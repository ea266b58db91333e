"""Nothing lost to a reload: the banner that offers to resume a kept game.

A game widget sets ``board.storage_key`` and keeps ``board.storage_value`` equal
to its saved game (JSON) after every move; the browser keeps that copy. When the
page is reloaded, the board hands the copy back, and this banner asks whether to
resume it. ``load`` must raise (``CorruptSaveError``) on a bad copy, which is then
dropped with a message, nothing loaded.

>>> from mathgames.core.board_widget import BoardWidget
>>> board = BoardWidget(storage_key="demo")
>>> loaded = []
>>> banner = ResumeBanner(board, loaded.append)
>>> banner.layout.display
'none'
>>> board.offer_stored('{"moves": 3}')
>>> banner.layout.display is None
True
>>> banner.resume_button.click()
>>> loaded, banner.layout.display
(['{"moves": 3}'], 'none')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import MathgamesError
from mathgames.core.i18n import translator

__all__ = ["ResumeBanner"]

_ = translator("core")


class ResumeBanner(w.HBox):
    """A hidden bar that appears when the browser offers a kept game."""

    def __init__(self, board: BoardWidget, load: Callable[[str], Any]) -> None:
        self._load = load
        self._pending: str | None = None
        self.message = w.HTML()
        self.resume_button = w.Button(description=_("Resume"), button_style="success",
                                      icon="play", layout=w.Layout())
        self.discard_button = w.Button(description=_("Start afresh"))
        super().__init__([self.message, self.resume_button, self.discard_button],
                         layout=w.Layout(display="none", align_items="center"))
        self.add_class("mathgames-resume")
        self.resume_button.on_click(lambda _b: self._resume())
        self.discard_button.on_click(lambda _b: self._discard())
        board.on_stored(self._offer)

    def _offer(self, text: str) -> None:
        self._pending = text
        self.message.value = f"<b>{_('Resume the game in progress?')}</b>"
        self.resume_button.description = _("Resume")
        self.discard_button.description = _("Start afresh")
        self.layout.display = None

    def _resume(self) -> None:
        text, self._pending = self._pending, None
        self.layout.display = "none"
        if text is None:
            return
        try:
            self._load(text)
        except MathgamesError as error:
            self.message.value = f"{_('The kept game could not be loaded')}: {error}"
            self.layout.display = None
            self.resume_button.layout.display = "none"

    def _discard(self) -> None:
        self._pending = None
        self.layout.display = "none"
