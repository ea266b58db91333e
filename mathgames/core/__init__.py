"""Shared parts of every game: errors, translations and the board widget.

Only :mod:`mathgames.core.errors` and :mod:`mathgames.core.i18n` may be imported
by rules cores; :mod:`mathgames.core.board_widget` is the Jupyter side.
"""

from __future__ import annotations

from mathgames.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidMoveError,
    MathgamesError,
)

__all__ = ["CorruptSaveError", "IllegalMoveError", "InvalidMoveError", "MathgamesError"]
