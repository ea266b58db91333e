"""Bots that place the called numbers: random, greedy and strong.

Every bot has ``choose(grid, card, called) -> cell``: ``grid`` is the bot's 25
cells row by row (``None`` when empty), ``card`` the number just called and
``called`` every number called so far (``card`` included). A bot only ever
answers an empty cell.

>>> from mathgames.matematiko.deck import deal_for_code
>>> deal = deal_for_code("BQT234")
>>> grid = play_deal(GreedyBot(), deal)
>>> sorted(grid) == sorted(deal)
True
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from mathgames.core.errors import check_choice
from mathgames.core.i18n import format_number, translator
from mathgames.core.levels import Clock, Level
from mathgames.matematiko.lines import (
    CELL_LINES,
    CELLS,
    DIAGONAL_POINTS,
    ROW_POINTS,
    grid_points,
    line_contents,
    stage_of,
    tail_row,
)
from mathgames.matematiko.odds import _weights, unseen_counts
from mathgames.matematiko.rollouts import PlayOuts, Tables, compiled, installed, warm
from mathgames.matematiko.rules import GRID_SIZE, LINES
from mathgames.matematiko.weights import EXPERT_WEIGHTS

__all__ = ["BOTS", "LEVELS", "TUNED", "Bot", "CarelessBot", "ExpertBot", "GreedyBot", "RandomBot",
           "StrongBot", "make_bot", "play_deal"]

_ = translator("matematiko")

#: A diagonal scores 10 more than a row when it scores: valued about 10 % more.
_DIAGONAL_WEIGHT = 1.1


class Bot(ABC):
    """A player that places numbers by itself."""

    name = "bot"

    @abstractmethod
    def choose(self, grid: Sequence[int | None], card: int, called: Sequence[int]) -> int:
        """The index (0-24) of the empty cell of ``grid`` where ``card`` goes."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Puts each number in a random empty cell (its own seeded generator).

    >>> RandomBot(seed=1).choose([None] * 25, 5, [5]) in range(25)
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def choose(self, grid: Sequence[int | None], card: int, called: Sequence[int]) -> int:
        return self._random.choice([i for i in range(CELLS) if grid[i] is None])


def _placement_gains(grid: Sequence[int | None], contents: list[tuple[int, ...]], card: int,
                     change: Callable[[tuple[int, ...], tuple[int, ...], bool], float],
                     ) -> list[tuple[float, int]]:
    """(gain, cell) for each empty cell: the sum over the cell's lines of
    ``change(line before, line with the card, the line is a diagonal)``, in cell order."""
    gains = []
    for cell in range(CELLS):
        if grid[cell] is not None:
            continue
        gain = 0.0
        for line in CELL_LINES[cell]:
            content = contents[line]
            gain += change(content, tuple(sorted((*content, card))), line >= 10)
        gains.append((gain, cell))
    return gains


class GreedyBot(Bot):
    """The best immediate expected value: the cell whose lines gain the most.

    Each line's value is its exact expected final points if its empty cells were
    filled with random cards from the rest of the deck (see :mod:`.odds`).
    """

    name = "greedy"

    def choose(self, grid: Sequence[int | None], card: int, called: Sequence[int]) -> int:
        counts = unseen_counts(called)
        cache: dict[tuple[int, ...], tuple[float, float]] = {}

        def value(content: tuple[int, ...], diagonal: bool) -> float:
            if content not in cache:
                tally, total = _weights(content, counts)
                total = total or 1
                cache[content] = (
                    sum(w * ROW_POINTS[n] for n, w in tally.items()) / total,
                    sum(w * DIAGONAL_POINTS[n] for n, w in tally.items()) / total,
                )
            return cache[content][1 if diagonal else 0]

        gains = _placement_gains(
            grid, line_contents(grid), card,
            lambda before, after, diagonal: value(after, diagonal) - value(before, diagonal))
        return max(gains, key=lambda gain_cell: gain_cell[0])[1]  # the first best cell


# -- the strong bot: target odds ------------------------------------------------------

@cache
def _targets(content: tuple[int, ...],
             ) -> tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]:
    """Scoring 5-card hands a line holding ``content`` can still become.

    Each target is (row points, how many cards are still needed, those cards as
    (value, how many)), best first. Independent of the deck, so cached for the
    whole process.

    >>> _targets((7, 7, 7, 7))[0]
    (160, 0, ())
    >>> (150, 1, ((1, 1),)) in _targets((10, 11, 12, 13))
    True
    """
    have = Counter(content)
    size = len(content)
    found: dict[tuple[tuple[int, int], ...], int] = {}

    def add(points: int, need: dict[int, int]) -> None:
        needed = tuple(sorted((v, m) for v, m in need.items() if m > 0))
        if sum(m for _v, m in needed) + size > GRID_SIZE:
            return
        if found.get(needed, -1) < points:
            found[needed] = points

    values = range(1, 14)
    for v in values:
        others = size - have[v]
        if others <= 1 and have[v] <= 4:
            add(200 if v == 1 else 160, {v: 4 - have[v]})
        if others <= 2 and have[v] <= 3:
            add(40, {v: 3 - have[v]})
        if others <= 3 and have[v] <= 2:
            add(10, {v: 2 - have[v]})
        for b in values:
            if b == v:
                continue
            rest = size - have[v] - have[b]
            if rest == 0 and have[v] <= 3 and have[b] <= 2:
                add(100 if (v, b) == (1, 13) else 80, {v: 3 - have[v], b: 2 - have[b]})
            if b > v and rest <= 1 and have[v] <= 2 and have[b] <= 2:
                add(20, {v: 2 - have[v], b: 2 - have[b]})
    if len(have) == size:
        windows = [(50, tuple(range(s, s + 5))) for s in range(1, 10)]
        windows.append((150, (1, 10, 11, 12, 13)))
        for points, window in windows:
            if all(v in window for v in have):
                add(points, {v: 1 for v in window if v not in have})
    return tuple(sorted(((p, sum(m for _v, m in n), n) for n, p in found.items()),
                        key=lambda t: -t[0]))


def _tails(counts: Sequence[int], draws: int,
           scales: Sequence[float] | None = None) -> list[list[float]]:
    """``tails[v][m]``: the chance that at least ``m`` cards ``v`` come in the next draws,
    times ``scales[v]`` if given (``tails[v][0]`` is 1, ``tails[0]`` all 1)."""
    unseen = sum(counts[1:])
    tails = [[1.0] * 5]
    for v in range(1, 14):
        row = tail_row(counts[v], unseen, draws)
        if scales:
            scale = scales[v]
            tails.append([1.0, row[1] * scale, row[2] * scale, row[3] * scale, row[4] * scale])
        else:
            tails.append(list(row))
    return tails


#: The evaluation tuned with the quick bot (``StrongBot(candidates=1, **TUNED)``) on
#: seeds 5,000,000 + i, never the bench's: a value's odds shrink by 0.8 for every
#: unfinished line already holding it, and a line holding one card waits a little
#: more patiently for its pair. It lifts the quick bot by about 17 points (364 -> 381
#: on 1,000 tuning deals) but not the expert's lookahead (394.5 against 394.4 on the
#: bench's 1,000 deals; the plain one 392.5 in the same session), so the levels keep
#: the plain, cheaper evaluation.
TUNED: dict[str, Any] = {
    "contest": 0.8,
    "contest_free": 0,
    "discounts": tuple(tuple(0.66 if (needed, slack) == (1, 1) else 0.55 ** needed
                             for slack in range(GRID_SIZE + 1))
                       for needed in range(GRID_SIZE + 1)),
}


@lru_cache(maxsize=64)
def _row_table(discounts: tuple[tuple[float, ...], ...],
               weights: tuple[tuple[int, tuple[float, ...]], ...] | None,
               ) -> Callable[[tuple[int, ...]], tuple[bool, tuple]]:
    """The rows of :meth:`StrongBot._rows` for one set of knobs: ``discounts`` as
    in :class:`StrongBot`, ``weights`` one stage's learned weights as sorted
    (points, weights by cards needed) pairs, or None for plain points."""
    worths = None if weights is None else dict(weights)
    store: dict[tuple[int, ...], tuple[bool, tuple]] = {}

    def rows(content: tuple[int, ...]) -> tuple[bool, tuple]:
        found = store.get(content)
        if found is not None:
            return found
        free = GRID_SIZE - len(content)
        targets = [(points if worths is None else points * worths[points][needed],
                    discounts[needed][free - needed],
                    tuple(5 * v + m for v, m in need))
                   for points, needed, need in _targets(content)]
        if all(len(need) <= 3 for _w, _d, need in targets):
            found = (True, tuple((worth, discount, *need, *(0,) * (3 - len(need)))
                                 for worth, discount, need in targets))
        else:
            found = (False, tuple(targets))
        store[content] = found
        return found

    return rows


class StrongBot(Bot):
    """Target odds with one card of lookahead, within a time budget per card.

    *Evaluation.* For each line the bot lists the scoring hands it can still
    become (:func:`_targets`) and the chance that the cards each one needs are
    still to come (hypergeometric tails over the remaining calls), discounted by
    ``factor`` per card needed (a card that comes must also be put in that
    line). Targets combine best first as if independent; a grid is worth the sum
    of its 12 lines (diagonals 10 % more).

    The evaluation's knobs (the defaults give the description above;
    :data:`TUNED` is a tuned set): ``discounts[needed][slack]`` replaces
    ``factor ** needed`` for a target still needing ``needed`` cards that leaves
    ``slack`` of the line's empty cells free; ``diagonal`` is a diagonal's
    weight; ``contest`` below 1 shrinks the odds of a value by
    ``contest ** (claims - contest_free)`` where ``claims`` counts the unfinished
    lines already holding that value (they compete for its copies).
    ``weights``, if given, are learned weights per stage of the game (see
    :data:`mathgames.matematiko.weights.STAGE_WEIGHTS`, fitted by
    ``bench/matematiko_fit.py``, or ``EXPERT_WEIGHTS``, the expert's own choices
    distilled by ``bench/matematiko_distil.py``): a target still needing ``needed`` cards counts
    ``points * weights[stage][points][needed]`` instead of its points, the stage
    following from how many numbers are still to come (:func:`.lines.stage_of`). The knobs
    are read when the bot is made.

    *Search.* The ``candidates`` cells that raise the evaluation most are
    compared by expectimax over the next number: for each value still in the
    deck, weighted by its copies, the best placement of that number. Candidates
    are examined best first, and the search stops before a candidate that would
    not fit in ``time_budget`` seconds (the plain evaluation's choice is always
    examined), so the bot is deterministic whenever the budget is not reached.
    ``clock`` gives the seconds (CPU time by default; a test may pass a fake).

    A third 7 goes beside the two in the first row (three of a kind is in reach):

    >>> grid = [7, 7, None, None, None] + [None] * 20
    >>> StrongBot(candidates=1).choose(grid, 7, [7, 7, 7]) in (2, 3, 4)
    True
    """

    name = "strong"

    def __init__(self, factor: float = 0.55, candidates: int = 6,
                 time_budget: float = 0.035, clock: Clock = time.process_time,
                 discounts: Sequence[Sequence[float]] | None = None,
                 diagonal: float = _DIAGONAL_WEIGHT, contest: float = 1.0,
                 contest_free: int = 2,
                 weights: Sequence[Mapping[int, Sequence[float]]] | None = None) -> None:
        self.factor = factor
        self.candidates = candidates
        self.time_budget = time_budget
        self.clock = clock
        # discounts[needed][slack]: slack = empty cells the target leaves free
        self.discounts = ([[factor ** k] * (GRID_SIZE + 1) for k in range(GRID_SIZE + 1)]
                          if discounts is None else [list(row) for row in discounts])
        self.diagonal = diagonal
        self.contest = contest
        self.contest_free = contest_free
        self.weights = weights
        # the knobs as one hashable key: the ready rows of every bot with the
        # same knobs are shared (read once, here: change them by making a new bot)
        self._knobs = (tuple(map(tuple, self.discounts)),
                       None if weights is None else
                       tuple(tuple(sorted((p, tuple(row)) for p, row in stage.items()))
                             for stage in weights))
        self._tables: dict[int | None, Callable[..., tuple[bool, tuple]]] = {}

    def _scales(self, contents: Sequence[tuple[int, ...]]) -> list[float] | None:
        """How much each value's odds shrink because several lines wait for it."""
        if self.contest == 1.0:
            return None
        claims = [0] * 14
        for content in contents:
            if len(content) < GRID_SIZE:
                for v in set(content):
                    claims[v] += 1
        return [self.contest ** max(0, c - self.contest_free) for c in claims]

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(factor={self.factor!r}, candidates={self.candidates!r}, "
                f"time_budget={self.time_budget!r})")

    def _valuer(self, tails: list[list[float]],
                sparse: Callable[[tuple[int, ...]], float] | None = None,
                draws: int | None = None) -> Callable[[tuple[int, ...]], float]:
        """A line's value under these odds (cached); ``sparse``, if given, values
        the lines holding fewer than 2 cards instead (they have the most targets).
        With learned ``weights``, ``draws`` (the numbers still to come) picks the
        stage whose weights apply; without ``draws`` the plain points count.

        The hot loop of the expert's search: each target's worth and discount
        come ready from :meth:`_rows`, and its chance is a product of entries
        of the flattened ``tails`` (index ``5 * value + cards``).
        """
        rows = self._rows(stage_of(draws) if self.weights is not None and draws is not None
                          else None)
        chance = [p for row in tails for p in row]  # chance[0] == 1.0 pads short needs
        cache: dict[tuple[int, ...], float] = {}

        def value(content: tuple[int, ...]) -> float:
            found = cache.get(content)
            if found is not None:
                return found
            if sparse is not None and len(content) < 2:
                found = cache[content] = sparse(content)
                return found
            short, targets = rows(content)
            miss = 1.0
            total = 0.0
            if short:  # at most 3 values needed per target: no inner loop
                for worth, discount, a, b, c in targets:
                    p = discount * chance[a] * chance[b] * chance[c]
                    total += worth * p * miss
                    miss *= 1.0 - p
                    if miss < 1e-4:
                        break
            else:
                for worth, p, need in targets:
                    for i in need:
                        p *= chance[i]
                    total += worth * p * miss
                    miss *= 1.0 - p
                    if miss < 1e-4:
                        break
            cache[content] = total
            return total

        return value

    def _rows(self, stage: int | None) -> Callable[[tuple[int, ...]], tuple[bool, tuple]]:
        """A line's targets ready for :meth:`_valuer` at ``stage`` (None: plain points).

        For each target of :func:`_targets`, best first: its worth (points, times
        the learned weight if any), its discount, and the indexes of the cards it
        needs in the flattened tails; padded to 3 indexes with ``0`` (a chance of
        1) when every target needs at most 3 values (``short``). The rows depend
        only on the line and the knobs, so bots with the same knobs share them
        (:func:`_row_table`).
        """
        table = self._tables.get(stage)
        if table is None:
            table = self._tables[stage] = _row_table(
                self._knobs[0], None if stage is None else self._knobs[1][stage])
        return table

    def _gains(self, grid: Sequence[int | None], contents: list[tuple[int, ...]], card: int,
               value: Callable[[tuple[int, ...]], float]) -> list[tuple[float, int]]:
        weight = self.diagonal

        def change(before: tuple[int, ...], after: tuple[int, ...], diagonal: bool) -> float:
            delta = value(after) - value(before)
            return delta * weight if diagonal else delta

        return _placement_gains(grid, contents, card, change)

    def _ranked(self, grid: Sequence[int | None], card: int, called: Sequence[int],
                ) -> tuple[list[int], int, list[float] | None, list[tuple[float, int]]]:
        """The unseen counts, the draws left, the contest scales, and (gain, cell) of
        every empty cell under the plain evaluation, best first."""
        counts = unseen_counts(called)
        draws = CELLS - len(called)
        contents = line_contents(grid)
        scales = self._scales(contents)
        value = self._valuer(_tails(counts, draws, scales), draws=draws)
        gains = self._gains(grid, contents, card, value)
        gains.sort(key=lambda t: (-t[0], t[1]))
        return counts, draws, scales, gains

    def choose(self, grid: Sequence[int | None], card: int, called: Sequence[int]) -> int:
        clock = self.clock
        start = clock()
        counts, draws, scales, gains = self._ranked(grid, card, called)
        if draws == 0 or len(gains) == 1 or self.candidates <= 1:
            return gains[0][1]
        unseen = sum(counts[1:])
        futures = []  # (chance, value function) of each next number
        for v in range(1, 14):
            if counts[v]:
                counts[v] -= 1
                futures.append((v, counts[v] + 1,
                                self._valuer(_tails(counts, draws - 1, scales), draws=draws - 1)))
                counts[v] += 1
        best_cell, best_score = gains[0][1], float("-inf")
        searched = clock()
        for examined, (_gain, cell) in enumerate(gains[: self.candidates]):
            now = clock()
            if examined and now + (now - searched) / examined > start + self.time_budget:
                break  # the next candidate would not fit in the budget
            after = list(grid)
            after[cell] = card
            after_contents = line_contents(after)
            score = 0.0
            for v, copies, future in futures:
                base = sum(future(c) * (self.diagonal if i >= 10 else 1.0)
                           for i, c in enumerate(after_contents))
                reply = max(g for g, _c in self._gains(after, after_contents, v, future))
                score += copies * (base + reply)
            score /= unseen
            if score > best_score:
                best_cell, best_score = cell, score
        return best_cell


#: Each line's weight in a grid's value: rows and columns 1, diagonals a little more.
_LINE_WEIGHTS = tuple(_DIAGONAL_WEIGHT if i >= 10 else 1.0 for i in range(len(LINES)))


#: Each cell's lines (2 to 4) padded to 4 with the index 12, a line that never changes.
_CELL_LINES_4 = tuple((*lines, *(len(LINES),) * (4 - len(lines))) for lines in CELL_LINES)


def _best_cell(grid: Sequence[int | None], contents: Sequence[tuple[int, ...]], card: int,
               value: Callable[[tuple[int, ...]], float],
               weights: Sequence[float] = _LINE_WEIGHTS) -> int:
    """The empty cell where ``card`` raises the evaluation most (the first on ties).

    The same choice as :meth:`StrongBot._gains`, computed per line: each line's
    change is worked out once, then every empty cell adds up its lines'.
    """
    deltas = []
    for line, content in enumerate(contents):
        if len(content) == GRID_SIZE:
            deltas.append(0.0)
        else:
            deltas.append((value(tuple(sorted((*content, card)))) - value(content))
                          * weights[line])
    deltas.append(0.0)  # the padding line of _CELL_LINES_4
    best, best_gain = -1, float("-inf")
    for cell in range(CELLS):
        if grid[cell] is None:
            a, b, c, d = _CELL_LINES_4[cell]
            gain = deltas[a] + deltas[b] + deltas[c] + deltas[d]
            if gain > best_gain:
                best, best_gain = cell, gain
    return best


def _with_card(contents: Sequence[tuple[int, ...]], cell: int, card: int,
               ) -> list[tuple[int, ...]]:
    """The 12 lines' sorted cards once ``card`` is written in ``cell``.

    >>> _with_card([()] * 12, 0, 7)[:6]
    [(7,), (), (), (), (), (7,)]
    """
    after = list(contents)
    for line in CELL_LINES[cell]:
        after[line] = tuple(sorted((*after[line], card)))
    return after


def _expected_points(contents: list[tuple[int, ...]], empty: tuple[int, ...],
                     counts: list[int]) -> float:
    """The expected final score when the ``empty`` cells get the next numbers, each
    drawn from the unseen ``counts`` and put where it gives the best expectation
    (exact expectimax: every value, weighted by its copies, and every cell).
    ``contents`` are the 12 lines' sorted cards (see ``LINES``)."""
    if not empty:
        return grid_points(contents)
    unseen = 0
    total = 0.0
    for v in range(1, 14):
        copies = counts[v]
        if not copies:
            continue
        unseen += copies
        counts[v] -= 1
        best = float("-inf")
        for cell in empty:
            best = max(best, _expected_points(_with_card(contents, cell, v),
                                              tuple(c for c in empty if c != cell), counts))
        counts[v] += 1
        total += copies * best
    return total / unseen


def _exact_choice(grid: Sequence[int | None], card: int, counts: list[int]) -> int:
    """The empty cell of ``grid`` where ``card`` gives the best expected final score,
    found by exact expectimax over the numbers still to come (few cells left only:
    the work grows as 13 ** empty cells). The first best cell on ties."""
    contents = line_contents(grid)
    empty = tuple(cell for cell in range(CELLS) if grid[cell] is None)
    best, best_value = empty[0], float("-inf")
    for cell in empty:
        value = _expected_points(_with_card(contents, cell, card),
                                 tuple(c for c in empty if c != cell), counts)
        if value > best_value + 1e-9:
            best, best_value = cell, value
    return best


class ExpertBot(StrongBot):
    """The strong evaluation with a Monte Carlo lookahead over the next numbers.

    The ``candidates`` cells the evaluation likes best are each tried with the
    same ``samples`` imagined continuations: numbers drawn from the cards not
    yet called (never from the real deck, which the bot does not see), placed
    one by one where the evaluation likes them best, with the odds of what is
    still unseen on that path. With ``horizon=None`` (the default) each
    continuation runs to the end of the game and the full grid is scored
    exactly by the rules, in the compiled kernel of
    :mod:`mathgames.matematiko.rollouts` (a few hundred imagined games a number;
    it needs ``contest=1``). With a ``horizon`` of ``n`` numbers a continuation
    stops after ``n`` numbers and the grid is valued with the odds still unseen
    on that path (plain Python: the level plays this when numba is missing).
    A whole imagined game with more than ``value_after`` numbers to come counts
    ``1 - value_share`` times its exact score plus ``value_share`` times the
    value of its grid ``value_after`` numbers on (the exact points of its full
    lines and the evaluation of the others): the two judge a cell with
    different errors, and their mean errs less than either.
    The cell with the best total over the samples wins. Using the same samples
    for every candidate (common random numbers) makes the comparison fair.

    *Late game.* With at most ``endgame`` numbers still to come after this one,
    the imagined continuations run to the end of the game and the full grids
    are scored exactly by the rules (a diagonal's +10 included); the
    ``endgame_candidates`` best cells are tried on ``endgame_samples``
    continuations, whose numbers are placed with the odds of the cards unseen
    now (shared by every sample, which makes a sample cheap). With at most
    ``exact`` numbers to come (keep it small: the work grows as 13 ** exact), the
    bot plays the exact expectimax instead: every cell, every value still unseen
    weighted by its copies, exact final scores.

    The samples are drawn by a generator seeded with ``seed`` and the numbers
    called so far, so the same deal always gets the same grid. Samples are
    played in rounds (one sample for every candidate); the search stops before
    a round that would not fit in ``time_budget`` seconds of ``clock`` (CPU time
    by default, a test may pass a fake), and with no round at all the plain
    evaluation's choice is played. The exact expectimax (a few milliseconds)
    does not look at the clock.

    >>> ExpertBot().samples, ExpertBot().horizon, ExpertBot().endgame, ExpertBot().exact
    (128, None, 6, 2)
    >>> ExpertBot().value_after, ExpertBot().value_share
    (5, 0.5)
    """

    name = "expert"

    def __init__(self, factor: float = 0.55, candidates: int = 6, samples: int = 128,
                 horizon: int | None = None, time_budget: float = 0.045,
                 clock: Clock = time.process_time, seed: int = 0, endgame: int = 6,
                 endgame_candidates: int = 12, endgame_samples: int = 64, exact: int = 2,
                 value_after: int = 5, value_share: float = 0.5,
                 **evaluation: Any) -> None:
        super().__init__(factor, candidates, time_budget, clock, **evaluation)
        if horizon is None and self.contest != 1.0:
            raise ValueError("the imagined games to the end use the plain odds: "
                             "give contest=1 or a horizon")
        self.samples = samples
        self.horizon = horizon
        self.seed = seed
        self.endgame = endgame
        self.endgame_candidates = endgame_candidates
        self.endgame_samples = endgame_samples
        self.exact = exact
        if not 0.0 <= value_share <= 1.0:
            raise ValueError(f"value_share must be between 0 and 1, not {value_share!r}")
        if value_share and value_after < 1:
            raise ValueError(f"value_after must be at least 1 number, not {value_after!r}")
        self.value_after = value_after
        self.value_share = value_share

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(factor={self.factor!r}, candidates={self.candidates!r}, "
                f"samples={self.samples!r}, horizon={self.horizon!r}, "
                f"value_after={self.value_after!r}, value_share={self.value_share!r}, "
                f"endgame={self.endgame!r}, exact={self.exact!r}, "
                f"time_budget={self.time_budget!r})")

    def choose(self, grid: Sequence[int | None], card: int, called: Sequence[int]) -> int:
        tables = None
        if self.horizon is None:
            # once a process: the kernel's tables (about a second) and its compiled
            # code (loaded from numba's cache, or compiled the first time), kept
            # out of the budget of the move that happens to come first
            tables = Tables.of(self)
            warm()
        clock = self.clock
        start = clock()
        if 0 < CELLS - len(called) <= self.exact:
            return _exact_choice(grid, card, unseen_counts(called))
        counts, draws, scales, gains = self._ranked(grid, card, called)
        late = draws <= self.endgame  # imagine the numbers to the end, score them exactly
        candidates = self.endgame_candidates if late else self.candidates
        samples = self.endgame_samples if late else self.samples
        if draws == 0 or len(gains) == 1 or candidates <= 1 or samples < 1:
            return gains[0][1]
        cells = [cell for _gain, cell in gains[:candidates]]
        to_end = late or tables is not None
        horizon = draws if to_end else min(self.horizon, draws)
        unseen = [v for v in range(1, 14) for _ in range(counts[v])]
        dice = random.Random(f"{self.seed}:{','.join(map(str, called))}")
        if tables is not None and not late:  # whole imagined games, in the compiled kernel
            play_round = PlayOuts(tables, grid, line_contents(grid), counts, cells,
                                  card, self.diagonal, after=self.value_after,
                                  share=self.value_share)
            totals = play_round.totals
        else:
            play_round, totals = self._sampler(grid, card, cells, counts, draws, scales,
                                               horizon, late)
        deadline = start + self.time_budget
        searched = clock()
        rounds = 0
        for _sample in range(samples):
            now = clock()
            if now > deadline or (rounds and now + (now - searched) / rounds > deadline):
                break  # the next round would not fit in the budget
            play_round(dice.sample(unseen, horizon))
            rounds += 1
        if not rounds:
            return gains[0][1]
        return cells[max(range(len(cells)), key=lambda i: (totals[i], -i))]

    def _sampler(self, grid: Sequence[int | None], card: int, cells: list[int],
                 counts: list[int], draws: int, scales: list[float] | None, horizon: int,
                 late: bool) -> tuple[Callable[[list[int]], None], list[float]]:
        """The Python rounds: a function that plays one imagined sequence of numbers
        after ``card`` in each of ``cells`` and adds each one's value to the totals
        it returns beside it."""
        starts = []
        for cell in cells:
            after = list(grid)
            after[cell] = card
            starts.append((after, line_contents(after)))
        # lines with fewer than 2 cards barely feel a few imagined numbers: they
        # are valued with the odds of the cards unseen now, shared by every sample
        # (in the late game every line is)
        sparse = [self._valuer(_tails(counts, draws - 1 - k, scales), draws=draws - 1 - k)
                  for k in range(horizon)]
        totals = [0.0] * len(starts)
        known: dict[tuple[int, ...], Callable[[tuple[int, ...]], float]] = {}
        line_weights = [self.diagonal if i >= 10 else 1.0 for i in range(len(LINES))]

        def play_round(numbers: list[int]) -> None:
            if late:
                valuers = sparse
            else:
                left = list(counts)
                valuers = []  # the odds after each imagined number
                for k, number in enumerate(numbers):
                    left[number] -= 1
                    key = tuple(left)  # samples that imagined the same numbers so far
                    value = known.get(key)  # share the odds (and their cache)
                    if value is None:
                        value = known[key] = self._valuer(_tails(left, draws - 1 - k, scales),
                                                          sparse[k], draws - 1 - k)
                    valuers.append(value)
            for i, (after, after_contents) in enumerate(starts):
                path, lines = list(after), list(after_contents)
                for number, value in zip(numbers, valuers, strict=True):
                    cell = _best_cell(path, lines, number, value, line_weights)
                    path[cell] = number
                    for line in CELL_LINES[cell]:
                        lines[line] = tuple(sorted((*lines[line], number)))
                if late:
                    totals[i] += grid_points(lines)
                else:
                    final = valuers[-1]
                    totals[i] += sum(final(content) * weight
                                     for content, weight in zip(lines, line_weights, strict=True))

        return play_round, totals


class CarelessBot(Bot):
    """Another bot that now and then puts a number in a random empty cell instead.

    ``mistakes`` is the chance of a careless placement, which grades a level
    between random play and ``bot``'s. The dice are seeded by ``seed`` and the
    numbers called so far, so the same deal always gets the same grid, however
    the bot is created or resumed.

    >>> bot = CarelessBot(GreedyBot(), mistakes=1.0, seed=2)
    >>> bot.choose([None] * 25, 5, [5]) == bot.choose([None] * 25, 5, [5])
    True
    """

    name = "careless"

    def __init__(self, bot: Bot, mistakes: float, seed: int = 0) -> None:
        self.bot = bot
        self.mistakes = mistakes
        self.seed = seed

    def __repr__(self) -> str:
        return f"CarelessBot({self.bot!r}, mistakes={self.mistakes!r})"

    def choose(self, grid: Sequence[int | None], card: int, called: Sequence[int]) -> int:
        dice = random.Random(f"{self.seed}:{','.join(map(str, called))}")
        if dice.random() < self.mistakes:
            return dice.choice([i for i in range(CELLS) if grid[i] is None])
        return self.bot.choose(grid, card, called)


def play_deal(bot: Bot, deal: Sequence[int]) -> list[int]:
    """The full grid a bot fills with the 25 numbers of a deal.

    >>> grid = play_deal(RandomBot(seed=3), list(range(1, 14)) + list(range(1, 13)))
    >>> None in grid
    False
    """
    grid: list[int | None] = [None] * CELLS
    for k, card in enumerate(deal):
        cell = bot.choose(list(grid), card, tuple(deal[: k + 1]))
        if not isinstance(cell, int) or not 0 <= cell < CELLS or grid[cell] is not None:
            raise RuntimeError(f"{bot!r} chose an illegal cell {cell!r}")
        grid[cell] = card
    return grid  # type: ignore[return-value]


#: The bots by name, as the widget offers them.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


# -- levels --------------------------------------------------------------------------

#: The quick levels' share of careless placements (a number in a random empty cell).
MISTAKES: dict[str, float] = {"easy": 0.32, "medium": 0.18, "hard": 0.06}


def _plays(name: str) -> str:
    """What a level plays like, in a student's words (the slips: one number in so many)."""
    if name == "expert":
        return _("Before each number it imagines the rest of the game many times over and "
                 "picks the cell that did best.")
    n = format_number(round(1 / MISTAKES[name]))
    if name == "easy":
        return _("For beginners: often puts a number in a random cell (about 1 in {n}); "
                 "the others go where they are most likely to score.").format(n=n)
    if name == "medium":
        return _("Sometimes puts a number in a random cell (about 1 in {n}); the others go "
                 "where they are most likely to score.").format(n=n)
    return _("Rarely slips (about 1 number in {n} goes in a random cell); the others go "
             "where they are most likely to score.").format(n=n)


def _student_words(name: str, figures: Mapping[str, float]) -> str:
    # the mean to the nearest ten points: what a student can compare with a grid
    points = format_number(round(figures["mean"], -1))
    return f"{_plays(name)} {_('Scores about {points} points a game.').format(points=points)}"


def _measured_words(figures: Mapping[str, float]) -> str:
    return _("Averages {mean} points over {deals} seeded deals; thinks {ms} ms a number "
             "(median, one core).").format(mean=format_number(figures["mean"]),
                                          deals=format_number(figures["deals"]),
                                          ms=format_number(figures["ms"], 1))


#: What ``bench/levels.py --only matematiko`` measured for each level (1,000 seeded
#: deals; ``ms``: median CPU time a number, one core).
LEVEL_FIGURES: dict[str, dict[str, float]] = {
    "easy": {"mean": 232.3, "deals": 1000, "ms": 0.15},
    "medium": {"mean": 284.9, "deals": 1000, "ms": 0.18},
    "hard": {"mean": 338.6, "deals": 1000, "ms": 0.2},
    "expert": {"mean": 423.0, "deals": 1000, "ms": 20.5},
}

#: The expert without numba: 24 imagined runs of 5 numbers in Python, as measured
#: before the compiled games came in (``bench/levels.py --only matematiko``, stop 52).
EXPERT_IN_PYTHON: dict[str, float] = {"mean": 411.6, "deals": 1000, "ms": 15.0}


def _figures(name: str, figures: Mapping[str, float]) -> Mapping[str, float]:
    """The figures of the level as this process would play it: the expert without
    numba plays shorter runs, measured apart (``rollouts.installed``)."""
    return figures if name != "expert" or installed() else EXPERT_IN_PYTHON


# The ladder: the quick target-odds evaluation (no lookahead, under 1 ms a number)
# with fewer and fewer careless placements, then the Monte Carlo search. The
# mistake rates put the levels' means about 50 points apart (bench/levels.py).
_LEVEL_BOTS: dict[str, Callable[[int, Clock], Bot]] = {
    "easy": lambda seed, clock: CarelessBot(StrongBot(candidates=1, clock=clock),
                                            mistakes=MISTAKES["easy"], seed=seed),
    "medium": lambda seed, clock: CarelessBot(StrongBot(candidates=1, clock=clock),
                                              mistakes=MISTAKES["medium"], seed=seed),
    "hard": lambda seed, clock: CarelessBot(StrongBot(candidates=1, clock=clock),
                                            mistakes=MISTAKES["hard"], seed=seed),
    # Monte Carlo lookahead over the 6 best cells, 45 ms a number at most: 128
    # imagined games to the end, each counting half its exact score and half the
    # evaluation's value of its grid 5 numbers on (the compiled kernel: 423.0 and 425.0
    # on the bench; without numba, 24 imagined runs of 5 numbers, which made 411.6,
    # and the panel says so); the last 6 numbers: 12 cells,
    # 64 runs to the end; the last 2 by exact expectimax; targets weighted by
    # EXPERT_WEIGHTS, the quick evaluation taught the choices of the expert with
    # the regression's STAGE_WEIGHTS and runs of 5 numbers
    "expert": lambda seed, clock: ExpertBot(
        clock=clock, seed=seed, weights=EXPERT_WEIGHTS,
        **({} if compiled() is not None else {"samples": 24, "horizon": 5})),
}

#: The levels a set-up panel offers, weakest first.
LEVELS: dict[str, Level] = {
    name: Level(name, factory, LEVEL_FIGURES[name],
                lambda figures, name=name: _student_words(name, _figures(name, figures)),
                lambda figures, name=name: _measured_words(_figures(name, figures)))
    for name, factory in _LEVEL_BOTS.items()
}


def make_bot(name: str, **options: object) -> Bot:
    """A bot by name: ``"random"``, ``"greedy"`` or ``"strong"``.

    >>> make_bot("greedy")
    GreedyBot()
    """
    return BOTS[check_choice("bot", name, BOTS)](**options)  # type: ignore[arg-type]


