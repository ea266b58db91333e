"""A table as a pure function of its event log (see :mod:`.session`): seats taken by
students or bots, then the moves of a game, each checked by its rules core through the
game's adapter (:mod:`mathgames.classroom.games`).

>>> t = TableState("T4KEY", {"game": "star", "seats": 2})
>>> t.apply({"type": "join", "seat": 0, "pid": "a", "name": "Ann", "token_hash": "h"})
>>> t.apply({"type": "bot", "seat": 1}); t.apply({"type": "start"})
>>> t.apply({"type": "move", "seat": 0, "ply": 0, "move": t.bot_move()}); t.to_move
1
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from mathgames.classroom.games import GAMES, TableGame, table_game
from mathgames.classroom.session import LogState, check_name
from mathgames.classroom.session import event_field as _field
from mathgames.classroom.store import normalize_code
from mathgames.core.errors import IllegalMoveError, InvalidMoveError, quoted
from mathgames.core.i18n import translator
from mathgames.core.levels import DEFAULT_LEVEL, LEVEL_NAMES

__all__ = [
    "BOT_LEVELS",
    "TABLE_BOT_LEVELS",
    "TABLE_GAMES",
    "TableState",
    "game_title",
    "level_title",
    "new_table_game",
]

_ = translator("classroom")

#: Table games: the seat counts each allows (its adapter: :data:`.games.GAMES`).
TABLE_GAMES: dict[str, tuple[int, ...]] = {name: game.seat_counts
                                           for name, game in GAMES.items()}
#: The bot levels a table offers (every table game has these three, see ``bots.LEVELS``).
TABLE_BOT_LEVELS = LEVEL_NAMES[:3]
#: The levels a bot seat may have: those, and the bots of earlier versions' tables.
BOT_LEVELS = (*TABLE_BOT_LEVELS, "greedy", "random")


def game_title(game: str) -> str:
    """A table game's name (a key of :data:`TABLE_GAMES`) in the current language.

    >>> game_title("star")
    'Chinese checkers'
    """
    return table_game(game).title()


def level_title(level: str) -> str:
    """A table's bot level (one of :data:`TABLE_BOT_LEVELS`) in the current language.

    >>> level_title("hard")
    'hard'
    """
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}[level]


def new_table_game(settings: Mapping[str, Any]) -> Any:
    """The rules core's game for a table's settings (``game``, ``seats``, ``seed`` and
    the game's own), through its adapter; raises for settings it refuses.

    >>> new_table_game({"game": "star", "seats": 6}).fill_rule  # an old table: literal
    'literal'
    """
    game, seats = settings.get("game"), settings.get("seats")
    if game not in GAMES or seats not in GAMES[game].seat_counts:
        raise InvalidMoveError(f"no table for {quoted(game)} with {quoted(seats)} seats")
    return GAMES[game].new_game(seats, int(settings.get("seed", 0)), settings)


class TableState(LogState):
    """A table: seats taken by students or bots, then the moves of a rules core.

    Events: ``join`` (a seat: id, name, token hash), ``bot`` (a seat for a bot),
    ``start``, ``move`` (the seat, the ply it is for, the move's text), ``leave`` (a
    student leaves: the seat is free again before the start, a bot's once the game has
    begun) and once the game is over ``again`` (the code of the table where the same
    players play their next game: ``next_table``). A move is checked by the game's
    rules core (Halma, Chinese checkers, Triomino) before it is appended; replaying the
    moves rebuilds the position.

    >>> t = TableState("T4KEY", {"game": "star", "seats": 2})
    >>> t.apply({"type": "join", "seat": 0, "pid": "a", "name": "Ann", "token_hash": "h"})
    >>> t.apply({"type": "bot", "seat": 1, "level": "greedy"}); t.apply({"type": "start"})
    >>> t.apply({"type": "move", "seat": 1, "ply": 0, "move": "pass"})
    Traceback (most recent call last):
    ...
    mathgames.core.errors.IllegalMoveError: it is not your turn
    """

    def __init__(self, code: str, settings: Mapping[str, Any]) -> None:
        self.code = code
        self.settings = dict(settings)
        self.game_name: str = self.settings.get("game", "")
        self.game = new_table_game(self.settings)  # raises for settings the game refuses
        #: The game's adapter: every rule, view and key of the game goes through it.
        self.adapter: TableGame = table_game(self.game_name)
        if self.bot_level not in TABLE_BOT_LEVELS:
            raise InvalidMoveError(f"no bot level {quoted(self.bot_level)} for a table")
        self.seats: list[dict[str, Any] | None] = [None] * int(self.settings["seats"])
        self.started = False
        self.seq = 0
        self.moves: list[str] = []
        self.next_table: str | None = None  # where the same players play again

    @property
    def bot_level(self) -> str:
        """The level of the bots that take the empty seats at the start (``bots`` in the
        settings; the game pages' default level if not given)."""
        return str(self.settings.get("bots", DEFAULT_LEVEL))

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.adapter.to_move(self.game)

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        """Whether the game is over (its rules core says so)."""
        return self.adapter.is_over(self.game)

    def seat_of(self, pid: str) -> int | None:
        """The seat a participant holds (None if none)."""
        return next((i for i, s in enumerate(self.seats) if s and s.get("pid") == pid), None)

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def is_bot(self, seat: int) -> bool:
        entry = self.seats[seat]
        return bool(entry and entry.get("bot"))

    @property
    def round_over(self) -> bool:
        """Whether a round (of Triomino) has ended and the next is still to be dealt."""
        return self.adapter.round_over(self.game)

    def may_move(self, seat: int) -> bool:
        """Whether ``seat`` may move now: at its turn; and once a Triomino round is over,
        any student at the table may deal the next one (see :attr:`bot_to_move`).

        >>> t = TableState("T4KEY", {"game": "star", "seats": 2})
        >>> t.apply({"type": "bot", "seat": 1}); t.may_move(0), t.may_move(1)
        (True, False)
        """
        if seat == self.to_move:
            return True
        return (self.round_over and 0 <= seat < len(self.seats) and bool(self.seats[seat])
                and not self.is_bot(seat))

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot makes the next move. When a Triomino round is over the bots wait
        for a student to deal the next round, so that everyone can read how the round
        ended; a table of bots alone goes on."""
        if not self.started or self.is_over or not self.is_bot(self.to_move):
            return False
        return not (self.round_over and self.has_student)

    @property
    def has_student(self) -> bool:
        """Whether a student sits at the table (a bot is not one)."""
        return any(s and not s.get("bot") for s in self.seats)

    def player_name(self, seat: int) -> str:
        """Who sits at ``seat``: the student's name, "bot" in the current language, or
        ``""`` for a free seat."""
        entry = self.seats[seat]
        if not entry:
            return ""
        return _("bot") if entry.get("bot") else str(entry["name"])

    def winners(self) -> list[int]:
        """The seats that won the finished game: the first home (Halma, Chinese checkers),
        or all those with the most points (Triomino); none in a draw or while it goes on.

        >>> t = TableState("T4KEY", {"game": "triomino", "seats": 2})
        >>> t.apply({"type": "join", "seat": 0, "pid": "a", "name": "Ann", "token_hash": "h"})
        >>> t.apply({"type": "bot", "seat": 1}); t.apply({"type": "start"})
        >>> t.winners(), t.player_name(0), t.player_name(1)
        ([], 'Ann', 'bot')
        """
        return self.adapter.winners(self.game)

    def result(self) -> str:
        """How the finished game ended, in a few words: who won (all who share the win), or
        a draw.

        >>> t = TableState("T4KEY", {"game": "star", "seats": 2,
        ...                          "placement": {"0": ["d14"], "1": ["a1"]}})
        >>> t.apply({"type": "join", "seat": 0, "pid": "a", "name": "Ann", "token_hash": "h"})
        >>> t.apply({"type": "bot", "seat": 1}); t.apply({"type": "start"})
        >>> for ply, move in enumerate(["d14-c14", "a1-b2"]):  # both home in the same round
        ...     t.apply({"type": "move", "seat": ply, "ply": ply, "move": move})
        >>> t.result()
        'Ann, bot won'
        """
        winners = self.winners()
        if not winners:
            return _("a draw")
        return _("{names} won").format(names=", ".join(map(self.player_name, winners)))

    def scores(self) -> list[int] | None:
        """Each seat's points so far once the game has begun (None for a game without
        points, or before the start).

        >>> TableState("T4KEY", {"game": "star", "seats": 2}).scores() is None
        True
        """
        return self.adapter.scores(self.game) if self.started else None

    def copy(self) -> TableState:
        """An independent copy, field by field, the game by its rules core's ``copy`` (to
        try an event on before it is appended: a move that the store could not keep never
        shows on the page that played it).

        >>> table = TableState("X", {"game": "star", "seats": 2})
        >>> other = table.copy()
        >>> other.apply({"type": "bot", "seat": 0})
        >>> table.seats[0] is None, other.seats[0]["bot"]
        (True, True)
        """
        other = object.__new__(TableState)
        other.__dict__.update(self.__dict__)  # the immutable fields: code, name, adapter...
        other.settings = copy.deepcopy(self.settings)
        other.game = self.adapter.copy_game(self.game)
        other.seats = [None if seat is None else dict(seat) for seat in self.seats]
        other.moves = list(self.moves)
        return other

    def apply(self, event: Mapping[str, Any]) -> None:
        """Check ``event`` and apply it, or raise a typed error and change nothing."""
        if not isinstance(event, Mapping):
            raise InvalidMoveError("an event is a dict")
        kind = event.get("type")
        if kind in ("join", "bot"):
            seat = _field(event, "seat", int)
            if self.started:
                raise IllegalMoveError(_("the game at this table has begun"))
            if seat not in range(len(self.seats)) or self.seats[seat] is not None:
                raise IllegalMoveError(_("that seat is taken"))
            if kind == "join":
                pid, name = _field(event, "pid", str), check_name(event.get("name"))
                if self.seat_of(pid) is not None:
                    raise IllegalMoveError("this player has a seat already")
                self.seats[seat] = {"pid": pid, "name": name,
                                    "token_hash": _field(event, "token_hash", str)}
            else:
                level = event.get("level", "greedy")
                if level not in BOT_LEVELS:
                    raise InvalidMoveError(f"no bot level {quoted(level)}")
                self.seats[seat] = {"bot": True, "level": level}
        elif kind == "start":
            if self.started:
                raise IllegalMoveError(_("the game at this table has begun"))
            if self.free_seats():
                raise IllegalMoveError(_("every seat needs a player or a bot"))
            if not self.has_student:
                raise IllegalMoveError(_("a table needs at least one student"))
            self.started = True
        elif kind == "move":
            seat, ply = _field(event, "seat", int), _field(event, "ply", int)
            text = _field(event, "move", str)
            if not self.started:
                raise IllegalMoveError(_("the game has not begun"))
            if self.is_over:
                raise IllegalMoveError(_("the game is over"))
            if ply != self.ply:
                raise IllegalMoveError(_("that move is not for this turn"))
            if not self.may_move(seat):
                raise IllegalMoveError(_("it is not your turn"))
            if self.round_over:
                if text != "next":
                    raise IllegalMoveError(_("the round is over"))
                self.adapter.next_round(self.game)
            else:
                self.adapter.play(self.game, text)
            self.moves.append(text)
        elif kind == "leave":
            seat = _field(event, "seat", int)
            if seat not in range(len(self.seats)) or not self.seats[seat] or self.is_bot(seat):
                raise IllegalMoveError("nobody sits there")
            if self.is_over:
                raise IllegalMoveError(_("the game is over"))
            # before the start the seat is free again; during the game a bot of the table's
            # level plays on there
            self.seats[seat] = {"bot": True, "level": self.bot_level} if self.started else None
        elif kind == "again":
            code = normalize_code(_field(event, "table", str))
            if not self.is_over:
                raise IllegalMoveError(_("the game is not over yet"))
            if self.next_table is not None:
                raise IllegalMoveError("the next game has its table already")
            self.next_table = code
        else:
            raise InvalidMoveError(f"unknown table event {quoted(kind)}")

    def bot_move(self) -> str:
        """The move of the bot whose turn it is, as text (seeded by the table and ply)."""
        seat = self.to_move
        entry = self.seats[seat] or {}
        seed = int(self.settings.get("seed", 0)) * 1000 + self.ply
        if self.round_over:
            return "next"
        return self.adapter.bot_move(self.game, entry.get("level", "greedy"), seed)
