"""The one error hierarchy every game uses.

Every error says *what* went wrong and *where* (a cell, a tile, a line of a
saved file), and every operation that raises one leaves the game state exactly
as it was.

>>> from mathgames.core.errors import IllegalMoveError, MathgamesError
>>> err = IllegalMoveError("cell c3 is already taken")
>>> isinstance(err, MathgamesError), isinstance(err, ValueError)
(True, True)
>>> str(err)
'cell c3 is already taken'
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Collection
from typing import Any

__all__ = [
    "CorruptSaveError", "IllegalMoveError", "InvalidMoveError", "MathgamesError", "SetupError",
    "check_choice", "quoted", "read_save", "shorten",
]


#: Writes a container's first few items, a few levels deep, never the whole of a big one.
_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxlevel, _SHORT_REPR.maxstring, _SHORT_REPR.maxother = 3, 40, 40


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to at most ``limit`` characters (the last one an ellipsis), for a
    message that quotes what a user typed or a file held.

    >>> shorten("c3")
    'c3'
    >>> shorten("7" * 100)
    '777777777777777777777777777777777777777…'
    >>> len(shorten("7" * 100)), len(shorten("abcdef", limit=4))
    (40, 4)
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def quoted(value: object) -> str:
    """A short text form of a value given by a user or a file, for a message: a text, a
    number or a list, tuple, dict or set as Python writes it (the first few items, a few
    levels deep), anything else by its kind.

    >>> quoted("z9"), quoted(7), quoted(None), quoted([1, 2]), quoted(object())
    ("'z9'", '7', 'None', '[1, 2]', 'an object')
    >>> quoted("x" * 100) == repr("x" * 100)[:39] + "…"
    True
    >>> quoted(list(range(100))), quoted([[[[[1]]]]])
    ('[0, 1, 2, 3, 4, 5, ...]', '[[[[...]]]]')
    """
    if isinstance(value, (str, int, float, type(None))):
        text = repr(value)
    elif isinstance(value, (list, tuple, dict, set, frozenset)):
        text = _SHORT_REPR.repr(value)
    else:
        kind = type(value).__name__
        text = f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"
    return shorten(text)


def check_choice(what: str, value: object, choices: Collection[str]) -> str:
    """``value`` if it is one of the names ``choices``; otherwise a ``ValueError`` that
    names what was asked for (``what``: a bot, a language) and lists the choices.

    >>> check_choice("bot", "easy", ["easy", "hard"])
    'easy'
    >>> check_choice("bot", "medium", ["easy", "hard"])
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'medium'; choose one of easy, hard
    >>> check_choice("bot", ["easy"], ["easy", "hard"])
    Traceback (most recent call last):
    ...
    ValueError: unknown bot ['easy']; choose one of easy, hard
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {what} {quoted(value)}; choose one of {', '.join(choices)}")
    return value


class MathgamesError(Exception):
    """Base class of every error raised on purpose by mathgames."""


class InvalidMoveError(MathgamesError, ValueError):
    """A move that cannot even be read: bad syntax, unknown cell, wrong type.

    >>> raise InvalidMoveError("'z9' is not a cell of the 16x16 board")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: 'z9' is not a cell of the 16x16 board
    """


class IllegalMoveError(MathgamesError, ValueError):
    """A well-formed move that the rules forbid in the current position.

    >>> raise IllegalMoveError("corner 2 of 1-2-3 does not match the 4 at (0, 1)")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.IllegalMoveError: corner 2 of 1-2-3 does not match the 4 at (0, 1)
    """


class CorruptSaveError(MathgamesError, ValueError):
    """A saved game that cannot be loaded: bad JSON, wrong version, tampered data.

    Loading never half-succeeds: when this is raised nothing was loaded.

    >>> raise CorruptSaveError("line 3: 'players' must be a list")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.CorruptSaveError: line 3: 'players' must be a list
    """


def read_save(text: Any, what: str = "saved game") -> Any:
    """The JSON data of a saved game's text (``what`` it should be, for the message), or
    :class:`CorruptSaveError` saying where the text stops being JSON (or that it is nested
    too deeply to read, or is not text); what the data must hold is for each game to check.

    >>> read_save('{"game": "halma"}')
    {'game': 'halma'}
    >>> for text in ('{"game" "halma"}', "[" * 100_000, None):
    ...     try:
    ...         read_save(text)
    ...     except CorruptSaveError as error:
    ...         print(error)
    not a saved game: the text is not JSON (Expecting ':' delimiter, line 1, column 9)
    not a saved game: the text is nested too deeply
    not a saved game: not JSON text
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CorruptSaveError(f"not a {what}: the text is not JSON ({error.msg}, line "
                               f"{error.lineno}, column {error.colno})") from None
    except RecursionError:
        raise CorruptSaveError(f"not a {what}: the text is nested too deeply") from None
    except (TypeError, ValueError):  # not text, or bytes that are not UTF-8
        raise CorruptSaveError(f"not a {what}: not JSON text") from None


class SetupError(MathgamesError, ValueError):
    """A game or rule set that cannot be set up: an unknown preset, a wrong number of
    players, a parameter of the wrong type or out of range.

    >>> raise SetupError("keep_score must be true or false, not 'no'")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.SetupError: keep_score must be true or false, not 'no'
    """
