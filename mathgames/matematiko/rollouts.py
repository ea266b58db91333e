"""The expert's imagined games played to the end: one kernel over flat arrays, compiled by numba.

:class:`mathgames.matematiko.bots.ExpertBot` tries a few cells for the number just
called by imagining the rest of the game many times: the numbers still to come,
drawn from the cards not yet called, are placed one by one where the quick
evaluation likes them best (with the odds of what is still unseen on that path),
and the full grid is scored exactly (the expert counts each game half at that
score and half at the evaluation's value of its grid a few numbers on, which the
kernel takes from the line values it has just computed). A few hundred such games a number are too
many for Python, so this module writes the quick evaluation as loops over flat
arrays, which numba compiles:

- every line content (the sorted cards of a line, at most 4 of a value, 0 to 5
  cards: 8,555 of them) has an index; ``add[i, v]`` is the index once a card
  ``v`` joins content ``i`` and ``size[i]`` its number of cards;
- a content's targets are rows ``first[i]`` to ``first[i + 1] - 1`` of
  ``worth`` (one column a stage), ``discount`` and ``need`` (indexes into the
  flattened tails, 0 for "nothing more"), as the bot's own rows give them;
- ``tail[copies, unseen, draws, m]`` is the chance that at least ``m`` of a
  value's ``copies`` come in the next ``draws`` of ``unseen`` cards;
- ``points[i, d]`` is a full line's exact score as a row (``d = 0``) or as a
  diagonal (``d = 1``, the +10 included).

The kernel is compiled at its first use when numba is installed (the ``app`` and
``fast`` extras install it; numba is imported only then, and its cache keeps the
compiled code for later processes); without numba the very same function runs as
plain Python, far too slowly for the expert's budget, so the expert level then
plays its shorter imagined runs instead (see ``LEVELS`` in
:mod:`mathgames.matematiko.bots`). ``tests/matematiko/test_matematiko_rollouts.py``
checks that both forms play the same games as the Python evaluation.

>>> from mathgames.matematiko.bots import StrongBot
>>> tables = Tables.of(StrongBot())
>>> len(tables.size), int(tables.size[tables.add[0, 7]])
(8555, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from mathgames.matematiko.lines import CELL_LINES, STAGES, full_line_points, tail_row

__all__ = ["PlayOuts", "Tables", "compiled", "installed", "kernel_mode", "warm"]

#: Lines a grid has, and the first diagonal's index (lines 10 and 11 are diagonals).
_LINES = 12
_FIRST_DIAGONAL = 10


def _play_out(grid, lines, counts, cells, card, numbers, totals, worth, discount, need,
              first, add, size, points, tail, cell_lines, diagonal, work_grid, work_lines,
              work_counts, chance, deltas, memo, stamps, ticks, after, share):
    """Write ``card`` in each of ``cells`` in turn, play ``numbers`` to the end of the
    game with the quick evaluation, and add each full grid's exact score to ``totals``;
    with a ``share`` above 0, add ``1 - share`` times the exact score plus ``share``
    times the grid's value ``after`` imagined numbers (the exact points of its full
    lines, the evaluation with the odds left on that path for the others) instead,
    where more than ``after`` numbers are to come.

    ``grid[c]``: the card in cell ``c`` or -1; ``lines[l]``: the content index of
    line ``l`` (an extra 13th entry, index 0, stands for "no line"); ``counts[v]``:
    the unseen copies of ``v`` once ``card`` is called; ``cell_lines[c]``: the 4
    lines through cell ``c`` (12 where a cell has only 3). Within one imagined
    number every line content is valued once: ``memo[i]`` holds content ``i``'s
    value where ``stamps[i]`` equals the number's tick (``ticks[0]`` counts them
    across calls). Numba compiles this; Python runs it unchanged.
    """
    stages = worth.shape[1]
    left = len(numbers)
    blend = share > 0.0 and 0 < after < left  # otherwise every game counts its exact score
    for i in range(len(cells)):
        for c in range(25):
            work_grid[c] = grid[c]
        for ln in range(_LINES + 1):
            work_lines[ln] = lines[ln]
        for v in range(14):
            work_counts[v] = counts[v]
        cell = cells[i]
        number = card
        midway = 0.0
        for k in range(left + 1):
            if k > 0:
                number = numbers[k - 1]
                work_counts[number] -= 1
                draws = left - k
                unseen = 0
                for v in range(1, 14):
                    unseen += work_counts[v]
                for m in range(5):
                    chance[m] = 1.0
                for v in range(1, 14):
                    for m in range(5):
                        chance[5 * v + m] = tail[work_counts[v], unseen, draws, m]
                stage = min(max(24 - draws, 0) // 4, stages - 1)
                ticks[0] += 1
                tick = ticks[0]
                for ln in range(_LINES):
                    before = work_lines[ln]
                    if size[before] == 5:
                        deltas[ln] = 0.0
                        continue
                    change = 0.0
                    for sign in range(2):
                        content = add[before, number] if sign == 0 else before
                        if stamps[content] == tick:
                            total = memo[content]
                        else:
                            miss = 1.0
                            total = 0.0
                            for t in range(first[content], first[content + 1]):
                                p = discount[t]
                                for j in range(need.shape[1]):
                                    p *= chance[need[t, j]]
                                total += worth[t, stage] * p * miss
                                miss *= 1.0 - p
                                if miss < 1e-4:
                                    break
                            memo[content] = total
                            stamps[content] = tick
                        change += total if sign == 0 else -total
                    deltas[ln] = change * diagonal if ln >= _FIRST_DIAGONAL else change
                deltas[_LINES] = 0.0
                cell = -1
                best = 0.0
                for c in range(25):
                    if work_grid[c] < 0:
                        gain = (deltas[cell_lines[c, 0]] + deltas[cell_lines[c, 1]]
                                + deltas[cell_lines[c, 2]] + deltas[cell_lines[c, 3]])
                        if cell < 0 or gain > best:
                            best = gain
                            cell = c
            work_grid[cell] = number
            for j in range(4):
                ln = cell_lines[cell, j]
                if ln < _LINES:
                    work_lines[ln] = add[work_lines[ln], number]
            if blend and k == after:
                # every unfinished line's content was valued for this number: its
                # own value, or the value with the number, where the number went
                midway = 0.0
                for ln in range(_LINES):
                    content = work_lines[ln]
                    if size[content] == 5:
                        midway += points[content, 1 if ln >= _FIRST_DIAGONAL else 0]
                    else:
                        midway += memo[content] * (diagonal if ln >= _FIRST_DIAGONAL else 1.0)
        score = 0
        for ln in range(_LINES):
            score += points[work_lines[ln], 1 if ln >= _FIRST_DIAGONAL else 0]
        if blend:
            totals[i] += (1.0 - share) * score + share * midway
        else:
            totals[i] += score


_jit: dict[str, Any] = {}


def compiled() -> Callable[..., None] | None:
    """The kernel compiled by numba, or None without numba (numba and numpy are
    imported only here).

    >>> compiled() is None or callable(compiled())
    True
    """
    if "kernel" not in _jit:
        try:
            import numba
        except ImportError:
            _jit["kernel"] = None
        else:
            _jit["kernel"] = numba.njit(cache=True, nogil=True)(_play_out)
            _jit["version"] = numba.__version__
    return _jit["kernel"]


def installed() -> bool:
    """Whether numba is installed, found without importing it (which takes a while):
    the set-up panel asks this to describe the expert level it would play.

    >>> installed() in (True, False)
    True
    """
    return find_spec("numba") is not None


def warm() -> None:
    """Compile the kernel now (or load it from numba's cache), not in a timed move.

    Numba compiles at a function's first call; this calls it once on an empty
    position. Without numba it does nothing. Cheap after the first time.

    >>> warm()
    """
    kernel = compiled()
    if kernel is None or _jit.get("warm"):
        return
    import numpy as np

    ints = np.zeros(0, np.int32)
    kernel(ints, ints, ints, ints, 0, ints, np.zeros(0), np.zeros((0, 1)), np.zeros(0),
           np.zeros((0, 5), np.int32), ints, np.zeros((0, 14), np.int32), ints,
           np.zeros((0, 2), np.int32), np.zeros((5, 53, 26, 5)), np.zeros((25, 4), np.int32),
           1.0, ints, ints, ints, np.zeros(0), np.zeros(0), np.zeros(0),
           np.zeros(0, np.int64), np.zeros(1, np.int64), 0, 0.0)
    _jit["warm"] = True


def kernel_mode() -> str:
    """A line saying how the expert's imagined games run (for benchmarks' output).

    >>> kernel_mode().startswith(("compiled by numba", "pure Python"))
    True
    """
    if compiled() is not None:
        return f"compiled by numba {_jit['version']}"
    return "pure Python (numba is not installed)"


def _contents() -> list[tuple[int, ...]]:
    return [content for cards in range(6)
            for content in combinations_with_replacement(range(1, 14), cards)
            if max(Counter(content).values(), default=0) <= 4]


class Tables(NamedTuple):
    """The flat arrays of one evaluation (see the module's docstring); ``index`` maps a
    line's sorted cards to its content index."""

    index: dict[tuple[int, ...], int]
    add: Any
    size: Any
    first: Any
    worth: Any
    discount: Any
    need: Any
    points: Any
    tail: Any
    cell_lines: Any

    @staticmethod
    def of(bot: Any) -> Tables:
        """The arrays of ``bot``'s evaluation (a :class:`~mathgames.matematiko.bots.StrongBot`
        without contest scales), built at the first call for a set of knobs (about a
        second) and kept for every later bot with the same knobs."""
        found = _TABLES.get(bot._knobs)
        if found is None:
            found = _TABLES[bot._knobs] = _build(bot)
        return found


_TABLES: dict[Any, Tables] = {}


def _build(bot: Any) -> Tables:
    import numpy as np

    contents = _contents()
    index = {content: i for i, content in enumerate(contents)}
    add = np.zeros((len(contents), 14), np.int32)
    size = np.array([len(content) for content in contents], np.int32)
    points = np.zeros((len(contents), 2), np.int32)
    for i, content in enumerate(contents):
        if len(content) == 5:
            points[i] = full_line_points(content)
        else:
            for v in range(1, 14):
                add[i, v] = index.get(tuple(sorted((*content, v))), 0)
    stages = [bot._rows(None if bot.weights is None else stage) for stage in range(STAGES)]
    first = np.zeros(len(contents) + 1, np.int32)
    worths: list[list[float]] = []
    discounts: list[float] = []
    needs: list[list[int]] = []
    for i, content in enumerate(contents):
        first[i] = len(discounts)
        rows = [stage(content) for stage in stages]
        short, targets = rows[0]
        for t, target in enumerate(targets):
            cards = [x for x in target[2:] if x] if short else list(target[2])
            worths.append([stage_rows[1][t][0] for stage_rows in rows])
            discounts.append(target[1])
            needs.append(cards + [0] * (5 - len(cards)))
    first[len(contents)] = len(discounts)
    tail = np.zeros((5, 53, 26, 5))
    for copies in range(5):
        for unseen in range(copies, 53):
            for draws in range(min(unseen, 25) + 1):
                tail[copies, unseen, draws] = tail_row(copies, unseen, draws)
    cell_lines = np.full((25, 4), _LINES, np.int32)
    for cell, through in enumerate(CELL_LINES):
        cell_lines[cell, : len(through)] = through
    return Tables(index, add, size, first, np.array(worths, np.float64),
                  np.array(discounts, np.float64), np.array(needs, np.int32), points, tail,
                  cell_lines)


class PlayOuts:
    """Imagined games from one position: each call plays one sequence of numbers
    after ``card`` in each of ``cells`` and adds the full grids' exact scores to
    :attr:`totals`.

    ``contents`` are the grid's 12 lines' sorted cards and ``counts`` the unseen
    copies of each value once ``card`` is called; ``jit=False`` runs the kernel
    as Python even when numba is installed (the tests compare the two). With a
    ``share`` above 0 a game with more than ``after`` numbers to come counts
    ``1 - share`` times its exact score plus ``share`` times the value of its grid
    ``after`` imagined numbers: the exact points of the full lines and the
    evaluation, with the odds left on that path, of the others.

    >>> from mathgames.matematiko.bots import StrongBot
    >>> from mathgames.matematiko.lines import line_contents
    >>> grid = [None] * 25
    >>> counts = [0] + [4] * 13
    >>> counts[7] -= 1
    >>> runs = PlayOuts(Tables.of(StrongBot()), grid, line_contents(grid), counts,
    ...                 cells=[0, 12], card=7, diagonal=1.1, jit=False)
    >>> runs((list(range(1, 14)) * 2)[:24])
    >>> len(runs.totals), bool(min(runs.totals) > 0)
    (2, True)
    """

    def __init__(self, tables: Tables, grid: Sequence[int | None],
                 contents: Sequence[tuple[int, ...]], counts: Sequence[int],
                 cells: Sequence[int], card: int, diagonal: float, jit: bool = True,
                 after: int = 0, share: float = 0.0) -> None:
        import numpy as np

        kernel = compiled() if jit else None
        self._kernel = _play_out if kernel is None else kernel
        self._np = np
        self.totals = np.zeros(len(cells))
        t = tables
        self._args = (
            np.array([-1 if v is None else v for v in grid], np.int32),
            np.array([t.index[content] for content in contents] + [0], np.int32),
            np.array(counts, np.int32), np.array(cells, np.int32), card)
        self._rest = (self.totals, t.worth, t.discount, t.need, t.first, t.add, t.size,
                      t.points, t.tail, t.cell_lines, float(diagonal),
                      np.zeros(25, np.int32), np.zeros(_LINES + 1, np.int32),
                      np.zeros(14, np.int32), np.zeros(70), np.zeros(_LINES + 1),
                      np.zeros(len(t.size)), np.zeros(len(t.size), np.int64),
                      np.zeros(1, np.int64), int(after), float(share))

    def __call__(self, numbers: Sequence[int]) -> None:
        self._kernel(*self._args, self._np.array(numbers, self._np.int32), *self._rest)
