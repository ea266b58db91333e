"""What classes and tables share: a state folded from an event log, and its contracts.

A class (:class:`~mathgames.classroom.class_state.ClassState`) and a table
(:class:`~mathgames.classroom.table_state.TableState`) are built by folding events:
``apply`` checks one event against the state and either changes the state or raises
and changes nothing. The same check runs before an event is appended (by
:mod:`mathgames.classroom.service`) and when a kernel replays the log, so every
kernel sees the same class. Both states keep the same two contracts (:class:`LogState`):

- **errors**: ``apply`` refuses a wrong event with a
  :class:`~mathgames.core.errors.MathgamesError` (``InvalidMoveError`` for a malformed
  event, ``IllegalMoveError`` for one against the rules, :class:`NotAllowedError`),
  whatever the game's rules core raised; :meth:`LogState.fold` skips exactly those
  (an event appended without the service's check is ignored by every kernel), and lets
  anything else (a bug) through;
- **copies**: ``copy`` copies the state field by field, each container anew and the
  rules core's game by its own ``copy``, so that nothing is shared with the original
  but immutable values (a copy is taken for every action, see ``Classroom._act``).

>>> from mathgames.classroom.class_state import ClassState
>>> from mathgames.classroom.store import Event
>>> c = ClassState("K3M9T").fold([Event(1, {"type": "call", "card": 7}),
...                              Event(2, {"type": "call", "card": 99})])
>>> c.calls, c.seq
([7], 2)
"""

from __future__ import annotations

import abc
import contextlib
import random
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar

from mathgames.core.errors import InvalidMoveError, MathgamesError
from mathgames.core.i18n import translator

__all__ = [
    "MAX_NAME_CHARS",
    "LogState",
    "NotAllowedError",
    "check_name",
    "event_field",
    "shuffled_seed",
]

_ = translator("classroom")

MAX_NAME_CHARS = 20
_NAME_PUNCTUATION = set(" -'.")


class NotAllowedError(MathgamesError, PermissionError):
    """An action without the right token, or by someone who may not take it."""


def check_name(name: object) -> str:
    """A first name, cleaned: 1-20 letters (any alphabet), spaces, ``-``, ``'`` or ``.``.

    >>> check_name("  Zoë ")
    'Zoë'
    >>> check_name("<script>")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: a name may have letters, spaces, - ' and . only
    """
    if not isinstance(name, str):
        raise InvalidMoveError(_("a name is text"))
    clean = " ".join(unicodedata.normalize("NFC", name).split())
    if not clean:
        raise InvalidMoveError(_("type your first name"))
    if len(clean) > MAX_NAME_CHARS:
        raise InvalidMoveError(
            _("a name has at most {n} characters").format(n=MAX_NAME_CHARS))
    if not all(ch.isalpha() or ch in _NAME_PUNCTUATION for ch in clean) or not any(
            ch.isalpha() for ch in clean):
        raise InvalidMoveError(_("a name may have letters, spaces, - ' and . only"))
    return clean


def event_field(event: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """The field ``key`` of an event, of type ``kind`` (never a bool), else
    :class:`~mathgames.core.errors.InvalidMoveError`.

    >>> event_field({"type": "call", "card": 7}, "card", int)
    7
    >>> event_field({"type": "call", "card": True}, "card", int)
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: event field 'card' is missing or has the wrong type
    """
    value = event.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidMoveError(f"event field {key!r} is missing or has the wrong type")
    return value


class _Stored(Protocol):
    """A stored event: its number in the log and its JSON data (``store.Event``)."""

    @property
    def seq(self) -> int: ...

    @property
    def data(self) -> Any: ...


_State = TypeVar("_State", bound="LogState")


class LogState(abc.ABC):
    """The base of a class's and a table's state: ``seq`` (the last event folded in),
    ``apply`` (one event, checked) and ``fold`` (stored events in order), with the
    contracts of the module's docstring. A subclass defines ``apply`` and ``copy``."""

    code: str
    seq: int

    @abc.abstractmethod
    def apply(self, event: Mapping[str, Any]) -> None:
        """Check ``event`` and apply it; raise a MathgamesError and change nothing if it
        is wrong."""

    @abc.abstractmethod
    def copy(self: _State) -> _State:
        """An independent copy, field by field (to try an event on before it is
        appended)."""

    def fold(self: _State, events: Iterable[_Stored]) -> _State:
        """Apply stored events (objects with ``seq`` and ``data``) after :attr:`seq` in
        order; skip those ``apply`` refuses (a MathgamesError: never appended by the
        service), and raise anything else."""
        for event in events:
            if event.seq <= self.seq:
                continue
            # An event appended without a check (never by our service) is ignored by everyone.
            with contextlib.suppress(MathgamesError):
                self.apply(event.data)
            self.seq = event.seq
        return self


def shuffled_seed() -> int:
    """A fresh seed for a class deck or a table (from the operating system).

    >>> 0 <= shuffled_seed() < 1 << 62
    True
    """
    return random.SystemRandom().randrange(1 << 62)
