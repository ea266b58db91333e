"""A match: one caller, one deal of 25 numbers, and 1 to 40 players placing them.

The state is plain data (the deal, how many numbers were called, and each
player's cells in calling order), so saving, loading and undo are simple and
safe. Cells are numbered 0..24 row by row, or named ``a1``..``e5`` (column
letter, row number from the top).

>>> m = Match(["Ann", "Ben"], deal=[*range(1, 14), *range(1, 13)])
>>> m.call_next()
1
>>> m.place("Ann", "a1"); m.place("Ben", 12)
>>> m.grid("Ann")[0], m.grid("Ben")[12]
(1, 1)
>>> m.place("Ann", "b1")
Traceback (most recent call last):
...
mathgames.core.errors.IllegalMoveError: Ann has already placed the 1 (in a1)
>>> m.undo("Ann")
0
>>> m.place("Ann", "b1"); m.grid("Ann")[:2]
[None, 1]
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mathgames.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidMoveError,
    quoted,
    read_save,
)
from mathgames.matematiko.deck import (
    DEAL_LENGTH,
    GameCodeError,
    deal_for_code,
    new_code,
    normalize_code,
)
from mathgames.matematiko.rules import COPIES, GRID_SIZE, LINES, GridScore, LineScore, score_grid

__all__ = [
    "MAX_NAME_CHARS",
    "MAX_PLAYERS",
    "SAVE_VERSION",
    "Match",
    "Player",
    "Standing",
    "cell_index",
    "cell_name",
    "full_lines",
]

MAX_PLAYERS = 40
MAX_NAME_CHARS = 40
SAVE_VERSION = 2
#: Older save versions that still load (version 1 listed the whole deal).
READABLE_VERSIONS = (1, 2)
CELLS = GRID_SIZE * GRID_SIZE
_COLUMNS = "abcde"


def cell_name(index: int) -> str:
    """The name of cell ``index`` (0..24): column letter and row number.

    >>> cell_name(0), cell_name(7), cell_name(24)
    ('a1', 'c2', 'e5')
    """
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < CELLS:
        raise InvalidMoveError(f"{quoted(index)} is not a cell number (0 to {CELLS - 1})")
    return f"{_COLUMNS[index % GRID_SIZE]}{index // GRID_SIZE + 1}"


def cell_index(cell: int | str | tuple[int, int]) -> int:
    """The index 0..24 of a cell given as an index, a name ``"c2"`` or ``(row, column)``.

    >>> cell_index("c2"), cell_index((1, 2)), cell_index(7)
    (7, 7, 7)
    >>> cell_index("f1")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: 'f1' is not a cell of the 5x5 grid (a1 to e5)
    """
    if isinstance(cell, int) and not isinstance(cell, bool) and 0 <= cell < CELLS:
        return cell
    if isinstance(cell, str):
        text = cell.strip().lower()
        if len(text) == 2 and text[0] in _COLUMNS and text[1] in "12345":
            return (int(text[1]) - 1) * GRID_SIZE + _COLUMNS.index(text[0])
    if isinstance(cell, tuple) and len(cell) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < GRID_SIZE for x in cell):
        return cell[0] * GRID_SIZE + cell[1]
    raise InvalidMoveError(f"{quoted(cell)} is not a cell of the 5x5 grid (a1 to e5)")


def full_lines(grid: Sequence[int | None]) -> list[tuple[int, LineScore]]:
    """The lines of a (partly filled) grid that are full, scored: (line index, score).

    >>> full_lines([1, 2, 3, 4, 5] + [None] * 20)[0][1].combination
    'straight'
    """
    from mathgames.matematiko.rules import classify, combination

    if not isinstance(grid, (list, tuple)) or len(grid) != CELLS or not all(
            v is None or (isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 13)
            for v in grid):
        raise InvalidMoveError(f"a grid is {CELLS} cells, each a card 1 to 13 or None")

    result = []
    for index, (name, cells) in enumerate(LINES):
        cards = [grid[i] for i in cells]
        if None in cards:
            continue
        combo = classify(cards)
        diagonal = index >= 10
        result.append((index, LineScore(tuple(cards), combo,
                                        combination(combo).points(diagonal), diagonal, name)))
    return result


@dataclass(frozen=True)
class Player:
    """A player: a name, and the bot that plays for them (``None`` for a person)."""

    name: str
    bot: str | None = None


@dataclass(frozen=True)
class Standing:
    """One row of the final ranking; equal totals share a rank."""

    rank: int
    name: str
    total: int
    bot: str | None = None


def _check_deal(deal: Iterable[int]) -> tuple[int, ...]:
    if not isinstance(deal, (list, tuple)):
        raise InvalidMoveError(f"deal: {quoted(deal)} is not a list of {DEAL_LENGTH} cards")
    cards = tuple(deal)
    if len(cards) != DEAL_LENGTH:
        raise InvalidMoveError(f"deal: {len(cards)} cards, a deal has {DEAL_LENGTH}")
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= 13:
            raise InvalidMoveError(f"deal: {quoted(card)} is not a card (cards are 1 to 13)")
    value, copies = Counter(cards).most_common(1)[0]
    if copies > COPIES:
        raise InvalidMoveError(f"deal: {copies} cards {value}, the deck has only {COPIES}")
    return cards


def _check_players(players: Iterable[str | Player]) -> tuple[Player, ...]:
    if not isinstance(players, (list, tuple)):
        raise InvalidMoveError(f"the players must be a list of names, not {quoted(players)}")
    if len(players) > MAX_PLAYERS:
        raise InvalidMoveError(f"a match has 1 to {MAX_PLAYERS} players, not {len(players)}")
    result: list[Player] = []
    for entry in players:
        player = entry if isinstance(entry, Player) else Player(entry)
        if not isinstance(player.name, str) or not player.name.strip():
            raise InvalidMoveError(f"player name {quoted(player.name)}: a name is some text")
        name = " ".join(player.name.split())
        if len(name) > MAX_NAME_CHARS:
            raise InvalidMoveError(
                f"player name {quoted(name)}: at most {MAX_NAME_CHARS} characters")
        if any(p.name == name for p in result):
            raise InvalidMoveError(f"player name {quoted(name)} is used twice")
        if player.bot is not None and not isinstance(player.bot, str):
            raise InvalidMoveError(f"player {quoted(name)}: the bot must be named by text")
        result.append(Player(name, player.bot))
    if not 1 <= len(result) <= MAX_PLAYERS:
        raise InvalidMoveError(f"a match has 1 to {MAX_PLAYERS} players, not {len(result)}")
    return tuple(result)


class Match:
    """One game of Matematiko for a group: the same 25 numbers for everyone.

    Give either a game ``code`` (a new random one by default) or an explicit
    ``deal`` of 25 cards (then the match has no code).
    """

    def __init__(self, players: Iterable[str | Player] = ("Player 1",), code: str | None = None,
                 deal: Iterable[int] | None = None) -> None:
        self.players: tuple[Player, ...] = _check_players(players)
        if deal is not None:
            if code is not None:
                raise InvalidMoveError("give a game code or a deal, not both")
            self.code: str | None = None
            self.deal: tuple[int, ...] = _check_deal(deal)
        else:
            self.code = normalize_code(code) if code is not None else new_code()
            self.deal = deal_for_code(self.code)
        self.called = 0
        self._cells: dict[str, list[int]] = {p.name: [] for p in self.players}

    def __repr__(self) -> str:
        names = [p.name for p in self.players]
        source = f"code={self.code!r}" if self.code else f"deal={list(self.deal)!r}"
        return f"Match({names!r}, {source})"

    # -- reading the state ---------------------------------------------------
    @property
    def names(self) -> list[str]:
        """The players' names, in order."""
        return [p.name for p in self.players]

    @property
    def current(self) -> int | None:
        """The number called last (``None`` before the first call)."""
        return self.deal[self.called - 1] if self.called else None

    @property
    def called_cards(self) -> tuple[int, ...]:
        """Every number called so far, in order."""
        return self.deal[: self.called]

    @property
    def is_over(self) -> bool:
        """All 25 numbers called and placed by everyone."""
        return self.called == DEAL_LENGTH and not self.waiting()

    def player(self, name: str) -> Player:
        """The player of that name (``InvalidMoveError`` if there is none)."""
        for player in self.players:
            if player.name == name:
                return player
        raise InvalidMoveError(f"there is no player called {quoted(name)}")

    def cells(self, name: str) -> list[int]:
        """The cells where a player put the numbers, in calling order."""
        self.player(name)
        return list(self._cells[name])

    def grid(self, name: str) -> list[int | None]:
        """A player's 25 cells row by row: the number in it, or ``None``."""
        self.player(name)
        grid: list[int | None] = [None] * CELLS
        for k, cell in enumerate(self._cells[name]):
            grid[cell] = self.deal[k]
        return grid

    def rows(self, name: str) -> list[list[int | None]]:
        """A player's grid as 5 rows of 5."""
        grid = self.grid(name)
        return [grid[r * GRID_SIZE:(r + 1) * GRID_SIZE] for r in range(GRID_SIZE)]

    def has_placed(self, name: str) -> bool:
        """Whether the player has placed the current number (true before the first call)."""
        self.player(name)
        return len(self._cells[name]) == self.called

    def waiting(self) -> list[str]:
        """The players who have not yet placed the current number."""
        return [p.name for p in self.players if len(self._cells[p.name]) < self.called]

    def score(self, name: str) -> GridScore:
        """A full grid's score (``IllegalMoveError`` while it is not full)."""
        grid = self.grid(name)
        if None in grid:
            raise IllegalMoveError(f"{name}'s grid is not full yet")
        return score_grid([grid[r * GRID_SIZE:(r + 1) * GRID_SIZE] for r in range(GRID_SIZE)])

    def points_so_far(self, name: str) -> int:
        """The points of a player's full lines (the total once the grid is full)."""
        return sum(line.points for _index, line in full_lines(self.grid(name)))

    def standings(self) -> list[Standing]:
        """The ranking by points so far, best first; equal totals share a rank.

        >>> m = Match(["A", "B", "C"], deal=[1] * 4 + [2] * 4 + list(range(3, 13)) + [13] * 4
        ...           + [3, 4, 5])
        >>> [s.rank for s in m.standings()]
        [1, 1, 1]
        """
        totals = sorted(((self.points_so_far(p.name), i, p) for i, p in enumerate(self.players)),
                        key=lambda t: (-t[0], t[1]))
        result: list[Standing] = []
        for position, (total, _i, player) in enumerate(totals):
            rank = result[-1].rank if result and result[-1].total == total else position + 1
            result.append(Standing(rank, player.name, total, player.bot))
        return result

    def history(self) -> list[tuple[int, dict[str, str | None]]]:
        """For each number called: the number, and the cell each player put it in."""
        return [
            (card, {p.name: (cell_name(self._cells[p.name][k])
                             if k < len(self._cells[p.name]) else None) for p in self.players})
            for k, card in enumerate(self.called_cards)
        ]

    # -- changing the state --------------------------------------------------
    def call_next(self) -> int:
        """The caller turns over the next number; everyone must have placed the last one."""
        if self.called >= DEAL_LENGTH:
            raise IllegalMoveError(f"all {DEAL_LENGTH} numbers have been called")
        waiting = self.waiting()
        if waiting:
            raise IllegalMoveError(
                f"{', '.join(waiting)} must place the {self.current} before the next call")
        self.called += 1
        return self.deal[self.called - 1]

    def place(self, name: str, cell: int | str | tuple[int, int],
              card: int | None = None) -> None:
        """Write the current number into an empty cell of a player's grid.

        ``card``, when given, must be the number that was called.
        """
        self.player(name)
        index = cell_index(cell)
        if self.called == 0:
            raise IllegalMoveError("no number has been called yet")
        mine = self._cells[name]
        if len(mine) == self.called:
            if self.called == DEAL_LENGTH:
                raise IllegalMoveError(f"the game is over: {name}'s grid is full")
            raise IllegalMoveError(
                f"{name} has already placed the {self.current} (in {cell_name(mine[-1])})")
        if card is not None and (isinstance(card, bool) or not isinstance(card, int)):
            raise InvalidMoveError(f"{quoted(card)} is not a card: a card is a whole number "
                                   "1 to 13")
        if card is not None and card != self.current:
            raise IllegalMoveError(f"the number called is {self.current}, not {card}")
        if index in mine:
            taken = self.deal[mine.index(index)]
            raise IllegalMoveError(f"cell {cell_name(index)} already holds a {taken}")
        mine.append(index)

    def can_undo(self, name: str) -> bool:
        """Whether the player placed the current number and may still take it back."""
        self.player(name)
        return self.called > 0 and len(self._cells[name]) == self.called

    def undo(self, name: str) -> int:
        """Take back the player's placement of the current number; returns the cell freed."""
        if not self.can_undo(name):
            raise IllegalMoveError(
                f"{name} has nothing to take back: only the placement of the current "
                "number can be undone, until the next call")
        return self._cells[name].pop()

    def uncall(self) -> int:
        """The caller takes back the last call (nobody may have placed it yet).

        A solitaire player is their own caller: undo there takes back the
        automatic call, then the placement before it.
        """
        if self.called == 0:
            raise IllegalMoveError("no number has been called yet")
        placed = [p.name for p in self.players if len(self._cells[p.name]) == self.called]
        if placed:
            raise IllegalMoveError(
                f"{', '.join(placed)} already placed the {self.current}: it cannot be uncalled")
        self.called -= 1
        return self.deal[self.called]

    # -- saving and loading --------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The match as plain JSON-able data (with a checksum against tampering).

        A match with a game code does not list its deal (the code rebuilds it), so a
        saved game, such as the copy a browser keeps, does not show the numbers to come:

        >>> m = Match(["Ann"], code="ABC234"); _ = m.call_next()
        >>> sorted(m.to_dict())
        ['called', 'checksum', 'code', 'game', 'players', 'version']
        >>> "deal" in Match(["Ann"], deal=[*range(1, 14), *range(1, 13)]).to_dict()
        True
        """
        data: dict[str, Any] = {
            "game": "matematiko",
            "version": SAVE_VERSION,
            "code": self.code,
            **({} if self.code is not None else {"deal": list(self.deal)}),
            "called": self.called,
            "players": [{"name": p.name, "bot": p.bot, "cells": list(self._cells[p.name])}
                        for p in self.players],
        }
        data["checksum"] = _checksum(data)
        return data

    def to_json(self) -> str:
        """The match as JSON text (see :meth:`from_json`).

        >>> m = Match(["Ann"], code="ABC234"); _ = m.call_next(); m.place("Ann", "c3")
        >>> Match.from_json(m.to_json()).grid("Ann") == m.grid("Ann")
        True
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """A match from :meth:`to_json` text; ``CorruptSaveError`` for anything wrong."""
        if not isinstance(text, (str, bytes)):
            raise CorruptSaveError("a saved game is text")
        data = read_save(text)
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """A match from :meth:`to_dict` data; ``CorruptSaveError`` for anything wrong."""
        if not isinstance(data, dict) or data.get("game") != "matematiko":
            raise CorruptSaveError("not a saved Matematiko game")
        version = data.get("version")
        if isinstance(version, bool) or version not in READABLE_VERSIONS:
            raise CorruptSaveError(f"version {quoted(version)}: this program reads versions "
                                   f"{', '.join(map(str, READABLE_VERSIONS))}")
        expected = {"game", "version", "code", "deal", "called", "players", "checksum"}
        if version > 1 and data.get("code") is not None:
            expected.discard("deal")  # the code rebuilds the deal
        if set(data) != expected:
            raise CorruptSaveError(f"the fields must be exactly {', '.join(sorted(expected))}")
        body = {k: v for k, v in data.items() if k != "checksum"}
        try:
            checksum = _checksum(body)
        except (TypeError, ValueError, RecursionError):
            raise CorruptSaveError("the saved game holds something that is not JSON data") from None
        if data["checksum"] != checksum:
            raise CorruptSaveError("the checksum does not match: the file was changed")
        players = data["players"]
        if not isinstance(players, list) or not all(
                isinstance(p, dict) and set(p) == {"name", "bot", "cells"} for p in players):
            raise CorruptSaveError("'players' must be a list of {name, bot, cells}")
        try:
            if data["code"] is None:
                match = cls([Player(p["name"], p["bot"]) for p in players], deal=data["deal"])
            else:
                match = cls([Player(p["name"], p["bot"]) for p in players], code=data["code"])
        except (InvalidMoveError, GameCodeError, TypeError) as error:
            raise CorruptSaveError(str(error)) from None
        if "deal" in data and list(match.deal) != data["deal"]:
            raise CorruptSaveError("the deal does not belong to the game code")
        called = data["called"]
        if isinstance(called, bool) or not isinstance(called, int) or not (
                0 <= called <= DEAL_LENGTH):
            raise CorruptSaveError(f"'called' must be 0 to {DEAL_LENGTH}, not {quoted(called)}")
        match.called = called
        for entry, player in zip(players, match.players, strict=True):
            cells = entry["cells"]
            if not isinstance(cells, list) or not called - 1 <= len(cells) <= called or not all(
                    isinstance(c, int) and not isinstance(c, bool) and 0 <= c < CELLS
                    for c in cells) or len(set(cells)) != len(cells):
                raise CorruptSaveError(f"player {quoted(player.name)}: the cells are not a valid "
                                       "placement of the numbers called")
            match._cells[player.name] = list(cells)
        return match


def _checksum(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
