"""Classes and tables as pure functions of their event logs.

A state is built by folding events: :meth:`ClassState.apply` and
:meth:`TableState.apply` check one event against the state and either change
the state or raise a typed error and change nothing. The same check runs
before an event is appended (by :mod:`mathgames.classroom.service`) and when a
kernel replays the log, so every kernel sees the same class.

A Matematiko class:

>>> from mathgames.classroom.tokens import hash_token
>>> c = ClassState("K3M9T", {"game": "matematiko", "seed": 1})
>>> c.apply({"type": "open", "teacher_hash": hash_token("t")})
>>> c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": hash_token("a")})
>>> c.apply({"type": "call", "card": 7})
>>> c.apply({"type": "place", "pid": "p1", "index": 0, "cell": 12})
>>> c.students["p1"].grid[12], c.waiting()
(7, [])
>>> c.apply({"type": "place", "pid": "p1", "index": 0, "cell": 3})
Traceback (most recent call last):
...
mathgames.core.errors.IllegalMoveError: Ann has already placed number 1 of the calls
"""

from __future__ import annotations

import contextlib
import copy
import csv
import io
import random
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mathgames.classroom.store import normalize_code
from mathgames.core.errors import IllegalMoveError, InvalidMoveError, MathgamesError, quoted
from mathgames.core.i18n import translator
from mathgames.core.levels import DEFAULT_LEVEL, LEVEL_NAMES
from mathgames.matematiko.deck import DEAL_LENGTH, shuffled_deck
from mathgames.matematiko.match import full_lines
from mathgames.matematiko.rules import CARD_VALUES, COPIES, GRID_SIZE

__all__ = [
    "MAX_NAME_CHARS",
    "MAX_STUDENTS",
    "TABLE_BOT_LEVELS",
    "TABLE_GAMES",
    "ClassState",
    "NotAllowedError",
    "Standing",
    "Student",
    "TableState",
    "check_name",
    "game_title",
    "level_title",
    "rank",
]

_ = translator("classroom")

MAX_STUDENTS = 40
MAX_NAME_CHARS = 20
CELLS = GRID_SIZE * GRID_SIZE
#: Table games: the rules core's board or preset, and the seat counts it allows.
TABLE_GAMES: dict[str, tuple[int, ...]] = {
    "halma": (2, 3, 4), "star": (2, 3, 4, 6), "triomino": (2, 3, 4, 5, 6)}
_NAME_PUNCTUATION = set(" -'.")
#: The bot levels a table offers (every table game has these three, see ``bots.LEVELS``).
TABLE_BOT_LEVELS = LEVEL_NAMES[:3]
#: The levels a bot seat may have: those, and the bots of earlier versions' tables.
BOT_LEVELS = (*TABLE_BOT_LEVELS, "greedy", "random")


def game_title(game: str) -> str:
    """A table game's name (a key of :data:`TABLE_GAMES`) in the current language.

    >>> game_title("star")
    'Chinese checkers'
    """
    return {"halma": _("Halma"), "star": _("Chinese checkers"), "triomino": _("Triomino")}[game]


def level_title(level: str) -> str:
    """A table's bot level (one of :data:`TABLE_BOT_LEVELS`) in the current language.

    >>> level_title("hard")
    'hard'
    """
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}[level]


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


def _field(event: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = event.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidMoveError(f"event field {key!r} is missing or has the wrong type")
    return value


# -- the Matematiko class ------------------------------------------------------------------------

@dataclass
class Student:
    """One student of a class: a name, the hash of their token, their placements."""

    pid: str
    name: str
    token_hash: str
    cells: list[int] = field(default_factory=list)  # the cell of each call, in calling order
    grid: list[int | None] = field(default_factory=lambda: [None] * CELLS)
    #: Joined after the game's 25th number: plays from the next game on (not in this
    #: game's ranking, its CSV, or the count of students still placing).
    next_game: bool = False

    @property
    def points(self) -> int:
        """Points of the lines filled so far (the final score once the grid is full)."""
        return sum(line.points for _index, line in full_lines(self.grid))


@dataclass(frozen=True)
class Standing:
    """A place in the ranking: ``rank`` is shared by equal scores (1, 1, 3, ...)."""

    rank: int
    pid: str
    name: str
    points: int


def rank(scores: Iterable[tuple[str, str, int]]) -> list[Standing]:
    """Rank ``(pid, name, points)`` by points, best first; equal points share a rank.

    >>> [(s.name, s.rank) for s in rank([("a", "Ann", 80), ("b", "Ben", 120), ("c", "Cy", 80)])]
    [('Ben', 1), ('Ann', 2), ('Cy', 2)]
    """
    ordered = sorted(scores, key=lambda s: (-s[2], s[1].casefold(), s[0]))
    standings = []
    for i, (pid, name, points) in enumerate(ordered):
        place = standings[-1].rank if i and ordered[i - 1][2] == points else i + 1
        standings.append(Standing(place, pid, name, points))
    return standings


#: The CSV columns of a grid's cells, row by row: a1, b1, ... e5.
CSV_CELLS = [f"{'abcde'[i % GRID_SIZE]}{i // GRID_SIZE + 1}" for i in range(CELLS)]


def _csv_name(name: str) -> str:
    """A name as a CSV cell: a spreadsheet must not read it as a formula.

    >>> _csv_name("=1+1"), _csv_name("Ann")
    ("'=1+1", 'Ann')
    """
    return "'" + name if name[:1] in "=+-@" else name


def _write_csv(header: list[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


class ClassState:
    """A Matematiko class: the teacher calls 25 numbers, every student places them.

    Events (all plain JSON): ``open`` (the teacher's token hash), ``join`` (a
    student: id, name, token hash), ``call`` (a number), ``place`` (a student's
    cell for call number ``index``; calls are placed in order, so a late joiner
    places the numbers called so far one by one), ``unplace`` (a student takes
    back their placement of the last number called, before the next one comes: a
    tap on the wrong cell), ``uncall`` (the teacher takes
    back call number ``index``, the last one: a card typed wrong; every student
    who placed it gets the cell back), ``again`` (once all 25 are called, the
    same class plays a new game with a new deck's ``seed``: the students stay,
    their grids empty, each game's points kept in :attr:`past` for the totals),
    ``remove`` (the teacher takes student ``pid`` off the class: a name that
    should not be on the projector; their pass stops working, the name is free).

    >>> c = ClassState("K3M9T")
    >>> c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": "h"})
    >>> c.apply({"type": "call", "card": 7})
    >>> c.apply({"type": "place", "pid": "p1", "index": 0, "cell": 12})
    >>> c.apply({"type": "unplace", "pid": "p1", "index": 0})
    >>> c.apply({"type": "place", "pid": "p1", "index": 0, "cell": 6})
    >>> c.apply({"type": "uncall", "index": 0})
    >>> c.calls, c.students["p1"].cells, c.students["p1"].grid[6]
    ([], [], None)
    >>> c.apply({"type": "again", "seed": 4})
    Traceback (most recent call last):
    ...
    mathgames.core.errors.IllegalMoveError: the game is not over yet
    """

    def __init__(self, code: str, settings: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.settings = dict(settings or {})
        self.seq = 0
        self.teacher_hash: str | None = None
        self.students: dict[str, Student] = {}
        self.calls: list[int] = []
        self.seed = int(self.settings.get("seed", 0))  # this game's deck
        self.past: list[dict[str, int]] = []  # each earlier game's points by student id
        #: each earlier game's CSV rows (:meth:`csv`), as its results stood at "again"
        self.past_rows: list[list[list[object]]] = []

    # -- reading -----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """All 25 numbers are called."""
        return len(self.calls) >= DEAL_LENGTH

    def players(self) -> list[Student]:
        """The students who play this game (not those who joined after its last number)."""
        return [s for s in self.students.values() if not s.next_game]

    def waiting(self) -> list[str]:
        """The ids of students who still have a called number to place."""
        return [s.pid for s in self.players() if len(s.cells) < len(self.calls)]

    @property
    def is_finished(self) -> bool:
        """All 25 numbers are called and every player has placed them: the ranking is final.

        >>> c = ClassState("K3M9T")
        >>> c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": "h"})
        >>> for card in ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 2)[:25]:
        ...     c.apply({"type": "call", "card": card})
        >>> c.is_over, c.is_finished
        (True, False)
        >>> for k in range(25): c.apply({"type": "place", "pid": "p1", "index": k, "cell": k})
        >>> c.is_finished
        True
        """
        return self.is_over and not self.waiting()

    def can_unplace(self, pid: str) -> bool:
        """Whether student ``pid`` may take back a placement: the last number called,
        placed, and no number called after it (a full grid has no other cell to choose).

        >>> c = ClassState("K3M9T")
        >>> c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": "h"})
        >>> c.apply({"type": "call", "card": 7}); c.can_unplace("p1")
        False
        >>> c.apply({"type": "place", "pid": "p1", "index": 0, "cell": 12}); c.can_unplace("p1")
        True
        >>> c.apply({"type": "call", "card": 9}); c.can_unplace("p1")
        False
        """
        student = self.students.get(pid)
        return (student is not None and bool(self.calls) and not self.is_over
                and len(student.cells) == len(self.calls))

    def student_by_name(self, name: str) -> Student | None:
        """The student with this name (compared without case), if any."""
        key = name.casefold()
        return next((s for s in self.students.values() if s.name.casefold() == key), None)

    def next_card(self) -> int:
        """The number the class's shuffled deck calls next (cards called by hand are skipped).

        >>> c = ClassState("K3M9T", {"seed": 5}); c.next_card() == shuffled_deck(5)[0]
        True
        """
        left = Counter(self.calls)
        for card in shuffled_deck(self.seed):
            if left[card]:
                left[card] -= 1
            else:
                return card
        raise IllegalMoveError(_("every card of the deck is called"))  # pragma: no cover

    @property
    def game(self) -> int:
        """Which game of the class this is: 1, then 2 after the first ``again``..."""
        return len(self.past) + 1

    def standings(self) -> list[Standing]:
        """This game's ranking by points (shared ranks for ties)."""
        return rank((s.pid, s.name, s.points) for s in self.players())

    def totals(self) -> list[Standing]:
        """The ranking by the points of every game of the class so far, this one too
        (a student who joined later has none from the games before)."""
        return rank((s.pid, s.name, s.points + sum(game.get(s.pid, 0) for game in self.past))
                    for s in self.players())

    def _rows(self) -> list[list[object]]:
        """This game's results as CSV rows: rank, name, points, placed, the 25 cells."""
        rows: list[list[object]] = []
        for standing in self.standings():
            student = self.students[standing.pid]
            rows.append([standing.rank, _csv_name(student.name), standing.points,
                         len(student.cells), *("" if v is None else v for v in student.grid)])
        return rows

    def csv(self) -> str:
        """This game's results as CSV: rank, name, points, then the 25 cells row by row.

        >>> c = ClassState("K3M9T"); c.csv().splitlines()[0][:24]
        'rank,name,points,placed,'
        """
        return _write_csv(["rank", "name", "points", "placed", *CSV_CELLS], self._rows())

    def session_csv(self) -> str:
        """Every game of the class as one CSV: each game's results (as :meth:`csv`, after
        a ``game`` column: 1, 2, ...), then from the second game on the totals (``game``
        is ``total``; no cells) as the page ranks them (:meth:`totals`).

        >>> c = ClassState("K3M9T")
        >>> c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": "h"})
        >>> for card in ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 2)[:25]:
        ...     c.apply({"type": "call", "card": card})
        >>> c.apply({"type": "again", "seed": 3})
        >>> for line in c.session_csv().splitlines():
        ...     print(line.split(",")[:5])
        ['game', 'rank', 'name', 'points', 'placed']
        ['1', '1', 'Ann', '0', '0']
        ['2', '1', 'Ann', '0', '0']
        ['total', '1', 'Ann', '0', '']
        """
        rows = [[game, *row] for game, rows in enumerate([*self.past_rows, self._rows()], 1)
                for row in rows]
        if self.past:
            rows += [["total", s.rank, _csv_name(s.name), s.points, "", *[""] * CELLS]
                     for s in self.totals()]
        return _write_csv(["game", "rank", "name", "points", "placed", *CSV_CELLS], rows)

    # -- changing ----------------------------------------------------------------------------
    def copy(self) -> ClassState:
        """An independent copy (to try an event on before it is appended)."""
        other = ClassState(self.code, self.settings)
        other.seq, other.teacher_hash, other.calls = self.seq, self.teacher_hash, list(self.calls)
        other.seed, other.past = self.seed, [dict(game) for game in self.past]
        other.past_rows = list(self.past_rows)  # (rows are never changed, only added)
        other.students = {pid: Student(s.pid, s.name, s.token_hash, list(s.cells), list(s.grid),
                                       s.next_game)
                          for pid, s in self.students.items()}
        return other

    def apply(self, event: Mapping[str, Any]) -> None:
        """Check ``event`` and apply it; raise a typed error and change nothing if it is wrong."""
        if not isinstance(event, Mapping):
            raise InvalidMoveError("an event is a dict")
        kind = event.get("type")
        if kind == "open":
            if self.teacher_hash is not None:
                raise IllegalMoveError("this class is open already")
            self.teacher_hash = _field(event, "teacher_hash", str)
        elif kind == "join":
            pid, name = _field(event, "pid", str), check_name(event.get("name"))
            token_hash = _field(event, "token_hash", str)
            if pid in self.students:
                raise IllegalMoveError(f"student id {pid} is taken")
            if self.student_by_name(name):
                raise IllegalMoveError(
                    _("{name} is in this class already: choose another name").format(name=name))
            if len(self.students) >= MAX_STUDENTS:
                raise IllegalMoveError(
                    _("this class is full ({n} students): ask the "
                       "teacher to open another").format(n=MAX_STUDENTS))
            # after the last number a newcomer waits for the next game (no 0 in this one's)
            self.students[pid] = Student(pid, name, token_hash, next_game=self.is_over)
        elif kind == "call":
            card = _field(event, "card", int)
            if self.is_over:
                raise IllegalMoveError(_("all 25 numbers are called"))
            if card not in CARD_VALUES:
                raise InvalidMoveError(_("Cards are numbers from 1 to 13: "
                                          "{card} is not one").format(card=card))
            if self.calls.count(card) >= COPIES:
                raise IllegalMoveError(
                    _("the {card} was called four times already: a "
                       "deck has four of each card").format(card=card))
            self.calls.append(card)
        elif kind == "uncall":
            index = _field(event, "index", int)
            if not self.calls:
                raise IllegalMoveError(_("no number is called yet"))
            if index != len(self.calls) - 1:
                raise IllegalMoveError(_("only the last number called can be taken back"))
            self.calls.pop()
            for student in self.students.values():
                if len(student.cells) > index:
                    student.grid[student.cells.pop()] = None
        elif kind == "remove":
            if self.students.pop(_field(event, "pid", str), None) is None:
                raise IllegalMoveError(_("this student is not in the class (any more)"))
        elif kind == "again":
            seed = _field(event, "seed", int)
            if not self.is_over:
                raise IllegalMoveError(_("the game is not over yet"))
            self.past.append({s.pid: s.points for s in self.players()})
            self.past_rows.append(self._rows())
            self.seed, self.calls = seed, []
            for student in self.students.values():
                student.cells, student.grid, student.next_game = [], [None] * CELLS, False
        elif kind == "place":
            student = self.students.get(_field(event, "pid", str))
            index, cell = _field(event, "index", int), _field(event, "cell", int)
            if student is None:
                raise IllegalMoveError(_("no such student: the teacher may have "
                                          "removed you; join again"))
            if student.next_game:
                raise IllegalMoveError(
                    _("This game is over: wait for the teacher to start the next one"))
            if index < len(student.cells):
                raise IllegalMoveError(_("{name} has already placed number {n} of the calls")
                                       .format(name=student.name, n=index + 1))
            if index != len(student.cells) or index >= len(self.calls):
                raise IllegalMoveError(_("number {n} is not {name}'s to place")
                                       .format(n=index + 1, name=student.name))
            if not 0 <= cell < CELLS or student.grid[cell] is not None:
                raise IllegalMoveError(_("that cell is taken: choose an empty one"))
            student.cells.append(cell)
            student.grid[cell] = self.calls[index]
        elif kind == "unplace":
            student = self.students.get(_field(event, "pid", str))
            index = _field(event, "index", int)
            if student is None:
                raise IllegalMoveError(_("no such student: the teacher may have "
                                          "removed you; join again"))
            if not self.can_unplace(student.pid) or index != len(student.cells) - 1:
                raise IllegalMoveError(
                    _("only your placement of the last number called can be taken back, "
                      "before the next one"))
            student.grid[student.cells.pop()] = None
        else:
            raise InvalidMoveError(f"unknown class event {quoted(kind)}")

    def fold(self, events: Iterable[Any]) -> ClassState:
        """Apply stored events (objects with ``seq`` and ``data``) in order; skip bad ones."""
        for event in events:
            if event.seq <= self.seq:
                continue
            # An event appended without a check (never by our service) is ignored by everyone.
            with contextlib.suppress(MathgamesError):
                self.apply(event.data)
            self.seq = event.seq
        return self


# -- tables ------------------------------------------------------------------------------------

def _table_game(settings: Mapping[str, Any]) -> Any:
    game, seats = settings.get("game"), settings.get("seats")
    if game not in TABLE_GAMES or seats not in TABLE_GAMES[game]:
        raise InvalidMoveError(f"no table for {quoted(game)} with {quoted(seats)} seats")
    if game == "triomino":
        from mathgames.triomino.game import Game as TriominoGame

        return TriominoGame(settings.get("rules", "pressman"), seats,
                            seed=int(settings.get("seed", 0)), history=False)
    from mathgames.halma.game import Game as HalmaGame

    limit = settings.get("move_limit")
    # a table opened before the fill rule was a setting replays under the literal rule
    rule = settings.get("fill_rule", "literal")
    placement = settings.get("placement")
    if placement:
        return HalmaGame.custom(game, seats, {int(p): list(cells) for p, cells
                                              in placement.items()}, move_limit=limit,
                                fill_rule=rule)
    return HalmaGame(game, seats, move_limit=limit, fill_rule=rule)


def triomino_action(game: Any, text: str) -> Any:
    """An action of the Triomino core from its text: ``draw``, ``pass`` or
    ``place <tile> <x> <y> <rotation>``."""
    from mathgames.triomino.table import Placement

    if text in ("draw", "pass"):
        return (text, None)
    parts = text.split()
    if len(parts) != 5 or parts[0] != "place":
        raise InvalidMoveError(f"{quoted(text)} is not a Triomino action")
    try:
        data = [parts[1], int(parts[2]), int(parts[3]), int(parts[4])]
    except ValueError:
        raise InvalidMoveError(f"{quoted(text)} is not a Triomino action") from None
    return ("place", Placement.from_list(data))


def triomino_text(action: Any) -> str:
    """The text of a Triomino core action (see :func:`triomino_action`)."""
    kind, placement = action
    if kind != "place":
        return kind
    tile, x, y, rotation = placement.to_list()
    return f"place {tile} {x} {y} {rotation}"


class TableState:
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
        self.game = _table_game(self.settings)
        if self.bot_level not in TABLE_BOT_LEVELS:
            raise InvalidMoveError(f"no bot level {quoted(self.bot_level)} for a table")
        self.seats: list[dict[str, Any] | None] = [None] * int(self.settings["seats"])
        self.started = False
        self.seq = 0
        self.moves: list[str] = []
        self.next_table: str | None = None  # where the same players play again

    @property
    def is_triomino(self) -> bool:
        return self.game_name == "triomino"

    @property
    def bot_level(self) -> str:
        """The level of the bots that take the empty seats at the start (``bots`` in the
        settings; the game pages' default level if not given)."""
        return str(self.settings.get("bots", DEFAULT_LEVEL))

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.game.current if self.is_triomino else self.game.to_move

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        if self.is_triomino:
            return self.game.phase == "game_over"
        return self.game.is_over()

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
        """Whether a Triomino round has ended and the next is still to be dealt."""
        return self.is_triomino and self.game.phase == "round_over"

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
        if not self.is_over:
            return []
        if self.is_triomino:
            scores = self.game.scores
            return [i for i, points in enumerate(scores) if points == max(scores)]
        return list(self.game.result().winners)

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

    def copy(self) -> TableState:
        """An independent copy (to try an event on before it is appended: a move that the
        store could not keep never shows on the page that played it).

        >>> table = TableState("X", {"game": "star", "seats": 2})
        >>> other = table.copy()
        >>> other.apply({"type": "bot", "seat": 0})
        >>> table.seats[0] is None, other.seats[0]["bot"]
        (True, True)
        """
        return copy.deepcopy(self)

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
                self.game.next_round()
            elif self.is_triomino:
                action = triomino_action(self.game, text)
                if action[0] == "place":
                    self.game.check(action[1])
                self.game.apply(action)
            else:
                self.game.play(text)
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

    def fold(self, events: Iterable[Any]) -> TableState:
        """Apply stored events in order; skip bad ones (never appended by the service)."""
        for event in events:
            if event.seq <= self.seq:
                continue
            with contextlib.suppress(MathgamesError, ValueError):
                self.apply(event.data)
            self.seq = event.seq
        return self

    def bot_move(self) -> str:
        """The move of the bot whose turn it is, as text (seeded by the table and ply)."""
        seat = self.to_move
        entry = self.seats[seat] or {}
        seed = int(self.settings.get("seed", 0)) * 1000 + self.ply
        if self.round_over:
            return "next"
        level = entry.get("level", "greedy")
        if self.is_triomino:
            from mathgames.triomino.bots import LEVELS as TRIOMINO_LEVELS
            from mathgames.triomino.bots import make_bot as make_triomino_bot

            bot = (TRIOMINO_LEVELS[level].make(seed) if level in TRIOMINO_LEVELS
                   else make_triomino_bot(level, seed=seed))  # a table of an earlier version
            return triomino_text(bot.choose(self.game))
        from mathgames.halma.bots import LEVELS as HALMA_LEVELS
        from mathgames.halma.bots import make_bot as make_halma_bot

        bot = (HALMA_LEVELS[level].make(seed) if level in HALMA_LEVELS
               else make_halma_bot(level, seed=seed))
        return str(bot.choose(self.game))


def bot_scores(calls: Sequence[int], seed: int = 0) -> dict[str, int]:
    """What the random, greedy and strong bots score on the same numbers.

    >>> scores = bot_scores(list(range(1, 14)) + list(range(1, 13)))
    >>> sorted(scores)
    ['greedy', 'random', 'strong']
    """
    from mathgames.matematiko.bots import make_bot, play_deal

    if len(calls) != DEAL_LENGTH:
        return {}
    result = {}
    for name in ("random", "greedy", "strong"):
        options: dict[str, object] = {"seed": seed} if name == "random" else {}
        grid = play_deal(make_bot(name, **options), list(calls))
        result[name] = sum(line.points for _index, line in full_lines(grid))
    return result


def shuffled_seed() -> int:
    """A fresh seed for a class deck or a table (from the operating system)."""
    return random.SystemRandom().randrange(1 << 62)
