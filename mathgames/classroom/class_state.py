"""A Matematiko class as a pure function of its event log (see :mod:`.session`).

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

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mathgames.classroom.session import LogState, check_name
from mathgames.classroom.session import event_field as _field
from mathgames.core.errors import IllegalMoveError, InvalidMoveError, quoted
from mathgames.core.i18n import translator
from mathgames.matematiko.deck import DEAL_LENGTH, shuffled_deck
from mathgames.matematiko.match import full_lines
from mathgames.matematiko.rules import CARD_VALUES, COPIES, GRID_SIZE

__all__ = ["CELLS", "MAX_STUDENTS", "ClassState", "Standing", "Student", "bot_scores", "rank"]

_ = translator("classroom")

MAX_STUDENTS = 40
CELLS = GRID_SIZE * GRID_SIZE


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


class ClassState(LogState):
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

    def copy(self) -> ClassState:
        """An independent copy, field by field (to try an event on before it is appended).

        >>> c = ClassState("K3M9T")
        >>> c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": "h"})
        >>> other = c.copy(); other.apply({"type": "call", "card": 7})
        >>> other.apply({"type": "place", "pid": "p1", "index": 0, "cell": 3})
        >>> c.calls, c.students["p1"].grid[3], other.students["p1"].grid[3]
        ([], None, 7)
        """
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
