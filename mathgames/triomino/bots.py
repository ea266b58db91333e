"""Computer players: random, greedy, cautious and a stronger planner.

A bot looks only at what its player may see (the table, its own hand, how many
tiles the others hold, the pool size, who drew when; never which tiles were drawn)
and returns an :data:`~mathgames.triomino.game.Action`.

>>> from mathgames.triomino.game import Game
>>> game = Game("pressman", 2, seed=3, history=False)
>>> bots = [PlannerBot(), GreedyBot()]
>>> while game.phase == "play":
...     game.apply(bots[game.current].choose(game))
>>> game.phase in ("round_over", "game_over")
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from math import comb

from mathgames.core.errors import check_choice
from mathgames.core.i18n import format_number, translator
from mathgames.core.levels import Clock, Level, games_won
from mathgames.triomino.game import Action, Game
from mathgames.triomino.geometry import cell_corners, cells_around
from mathgames.triomino.rules import RuleSet
from mathgames.triomino.table import Placement, Table
from mathgames.triomino.tiles import Tile, all_tiles

__all__ = ["BOTS", "LEVELS", "Bot", "CautiousBot", "GentleBot", "GreedyBot", "PlannerBot",
           "RandomBot", "hand_candidates", "make_bot"]

_ = translator("triomino")


class Bot(ABC):
    """A computer player: :meth:`choose` returns a move for ``game.current``."""

    name = "bot"

    @abstractmethod
    def choose(self, game: Game) -> Action:
        """A legal action for the player to move in ``game``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Any legal move, uniformly (placing, drawing and passing alike).

    >>> RandomBot(seed=1).name
    'random'
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


class GentleBot(Bot):
    """The gentlest opponent: its lowest-scoring fitting placement (at random among
    equals), so it never takes a bonus it could leave; draws only when nothing fits.
    Its own seeded generator.

    >>> GentleBot(seed=1).name
    'gentle'
    """

    name = "gentle"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        placements = sorted(game.legal_placements(), key=_order)
        if not placements:
            return _fallback(game)
        points = [game.points_for(p) for p in placements]
        low = min(points)
        return ("place", self.rng.choice([p for p, v in zip(placements, points, strict=True)
                                          if v == low]))


def _fallback(game: Game) -> Action:
    return ("draw", None) if game.can_draw() else ("pass", None)


class GreedyBot(Bot):
    """The placement with the highest immediate score; draws only when nothing fits.

    Ties go to the first placement in a fixed order (tile, then cell, then rotation).
    """

    name = "greedy"

    def choose(self, game: Game) -> Action:
        placements = game.legal_placements()
        if not placements:
            return _fallback(game)
        best = max(sorted(placements, key=_order), key=game.points_for)
        return ("place", best)


def _order(p: Placement) -> tuple:
    return (p.tile.digits, p.cell, p.rotation)


def _pattern_sets(tiles: list[Tile]) -> dict[tuple, frozenset[Tile]]:
    """Which of ``tiles`` fit each pattern of required digits (None = free corner)."""
    index: dict[tuple, set[Tile]] = {}
    for tile in tiles:
        for a, b, c in tile.rotations():
            for key in ((a, b, c), (a, b, None), (a, None, c), (None, b, c), (a, None, None),
                        (None, b, None), (None, None, c), (None, None, None)):
                index.setdefault(key, set()).add(tile)
    return {key: frozenset(found) for key, found in index.items()}


_NONE: frozenset[Tile] = frozenset()


def hand_candidates(game: Game, player: int, unseen: list[Tile]) -> list[Tile]:
    """The unseen tiles that may be in ``player``'s hand, judged from public events only.

    Where one may draw only when nothing fits (``draw_when="blocked"``), a player who
    drew had no tile that fitted the table at that moment, and kept only drawn tiles
    that did not fit either: after their latest such turn, every tile in their hand
    misses the table as it was then. (Which tiles were drawn is not looked at.)
    """
    if game.rules.draw_when != "blocked" or (player == game.current and game.drawn):
        return unseen  # (in the middle of drawing, the hand holds fresh tiles)
    log = game.log
    start = max((i + 1 for i, item in enumerate(log) if item[2] == "round_end"), default=0)
    places, blocked_at = 0, None
    for item in log[start:]:
        if item[2] == "place":
            places += 1
        elif item[2] == "draw" and item[1] == player:
            blocked_at = places
    if blocked_at is None:
        return unseen
    before = len(game.table.order) - places  # tiles put down without a move (solitaire)
    then = Table()
    for placement in game.table.order[:before + blocked_at]:
        then.place(placement)
    fitting = {p.tile for p in then.placements_for(unseen)}
    return [t for t in unseen if t not in fitting]


class CautiousBot(Bot):
    """Looks one move ahead: the immediate score, and also what the move leaves behind.

    For each legal placement it weighs

    - the points it scores now;
    - the bonus spots (hexagon, bridge, two-sided fit) it opens or leaves for the next
      player, times the chance that the next player holds a tile that fits there
      (counted over the tiles it has not seen);
    - its own remaining tiles that still fit somewhere (flexibility) and the bonus
      spots it could use itself;
    - the chance that the next player cannot place at all and must draw (denial):
      counted from the unseen tiles that fit any open spot; where one draws only when
      blocked, a player who drew is known to hold no tile that fitted the table then
      (:func:`hand_candidates`);
    - the value it would still hold if the round ended (``hand_weight``).

    With ``bonuses=False`` it counts a placement's tile value only, never its bonus.

    >>> from mathgames.triomino.game import Game
    >>> game = Game("pressman", 2, seed=4, history=False)
    >>> game.apply(CautiousBot().choose(game))  # the start tile
    >>> kind, placement = CautiousBot().choose(game)
    >>> kind == "draw" or placement in game.legal_placements()
    True
    """

    name = "cautious"

    def __init__(self, risk_weight: float = 1.0, mobility_weight: float = 4.0,
                 hand_weight: float = 0.3, setup_weight: float = 0.25,
                 denial_weight: float = 3.0, bonuses: bool = True) -> None:
        self.bonuses = bonuses
        self.risk_weight = risk_weight
        self.mobility_weight = mobility_weight
        self.hand_weight = hand_weight
        self.setup_weight = setup_weight
        self.denial_weight = denial_weight

    def choose(self, game: Game) -> Action:
        placements = game.legal_placements()
        if not placements:
            return _fallback(game)
        if len(placements) == 1:
            return ("place", placements[0])
        scores = self.scores(game, sorted(placements, key=_order))
        return ("place", max(scores, key=scores.__getitem__))

    def scores(self, game: Game, placements: list[Placement]) -> dict[Placement, float]:
        """What this bot thinks of each of ``placements`` (legal ones), in that order."""
        me = game.current
        hand = game.hands[me]
        seen = set(hand) | set(game.table.tiles())
        unseen = [t for t in all_tiles() if t not in seen]
        unseen_index = _pattern_sets(unseen)
        nxt = (me + 1) % game.players
        opponent_tiles = len(game.hands[nxt]) if nxt != me else 0
        candidates = hand_candidates(game, nxt, unseen) if opponent_tiles else unseen
        if len(candidates) < opponent_tiles:  # cannot happen in a real game; be safe
            candidates = unseen
        candidate_index = _pattern_sets(candidates)
        scores: dict[Placement, float] = {}
        for placement in placements:
            score = game.points_for(placement) if self.bonuses else placement.tile.value
            if len(hand) > 1:
                score += self._after(game, placement, hand, unseen_index, len(unseen),
                                     candidate_index, len(candidates), opponent_tiles)
            scores[placement] = score
        return scores

    def _after(self, game: Game, placement: Placement, hand: list[Tile],
               unseen_index: dict[tuple, frozenset[Tile]], unseen: int,
               candidate_index: dict[tuple, frozenset[Tile]], candidates: int,
               opponent_tiles: int) -> float:
        rules = game.rules
        table: Table = game.table.copy()
        table.place(placement)
        rest = list(hand)
        rest.remove(placement.tile)
        mine = _pattern_sets(rest)
        # cells whose bonus may have changed: around the corners of the new tile
        near = {c for p in cell_corners(placement.cell) for c in cells_around(p)}
        frontier = table.frontier()
        risk = 0.0
        setup = 0.0
        for cell in near & frontier:
            bonus = table.bonus(cell)
            if bonus.kind == "hexagon":
                value = rules.hexagon_bonuses[bonus.hexagons - 1]
            elif bonus.kind == "bridge":
                value = rules.bridge_bonus
            elif bonus.kind == "two_sided":
                value = rules.two_sided_bonus
            else:
                continue
            if not value:
                continue
            need = table.required(cell)
            k = len(candidate_index.get(need, _NONE))
            if opponent_tiles and candidates:
                chance = 1 - comb(candidates - k, opponent_tiles) / comb(
                    candidates, opponent_tiles) if candidates - k >= opponent_tiles else 1.0
                risk = max(risk, value * chance)
            if mine.get(need):
                setup = max(setup, value)
        patterns = {table.required(cell) for cell in frontier}
        # how many of my remaining tiles still fit somewhere
        fitting: set[Tile] = set()
        theirs: set[Tile] = set()
        anyone: set[Tile] = set()
        for need in patterns:
            fitting |= mine.get(need, _NONE)
            theirs |= candidate_index.get(need, _NONE)
            anyone |= unseen_index.get(need, _NONE)
        denial = 0.0
        if opponent_tiles and candidates and rules.draw_penalty:
            fit = len(theirs)
            blocked = comb(candidates - fit, opponent_tiles) / comb(candidates, opponent_tiles) \
                if candidates - fit >= opponent_tiles else 0.0
            denial = blocked * rules.draw_penalty * (unseen + 1) / (len(anyone) + 1)
        left = sum(t.value for t in rest)
        return (-self.risk_weight * risk + self.setup_weight * setup
                + self.mobility_weight * len(fitting) - self.hand_weight * left
                + self.denial_weight * denial)


def _bonus_points(rules: RuleSet, table: Table, cell: tuple[int, int]) -> int:
    bonus = table.bonus(cell)
    if bonus.kind == "hexagon":
        return rules.hexagon_bonuses[bonus.hexagons - 1]
    if bonus.kind == "bridge":
        return rules.bridge_bonus
    if bonus.kind == "two_sided":
        return rules.two_sided_bonus
    return 0


@cache
def _fitting() -> dict[tuple, tuple[tuple[tuple[int, int, int], Tile, int], ...]]:
    """Every (digits, tile, rotation) by the digits a cell may require (``None``: free)."""
    index: dict[tuple, list[tuple[tuple[int, int, int], Tile, int]]] = {}
    for tile in all_tiles():
        for rotation, (a, b, c) in enumerate(tile.rotations()):
            for key in ((a, b, c), (a, b, None), (a, None, c), (None, b, c), (a, None, None),
                        (None, b, None), (None, None, c)):
                index.setdefault(key, []).append((tile.digits, tile, rotation))
    return {key: tuple(found) for key, found in index.items()}


class _Playout:
    """A round played on from a guessed deal by greedy players, a few turns deep.

    Plain lists and a :class:`Table`; the same rules as :class:`Game` for placing,
    drawing, passing, going out and a blocked round (start moves never happen here,
    and a score target is not watched). ``gain`` is each player's points since.
    """

    __slots__ = ("gain", "hands", "over", "pool", "rules", "table")

    def __init__(self, rules: RuleSet, table: Table, hands: list[list[Tile]],
                 pool: list[Tile]) -> None:
        self.rules, self.table, self.hands, self.pool = rules, table, hands, pool
        self.gain = [0] * len(hands)
        self.over = False

    def _best(self, player: int, tiles: list[Tile]) -> tuple[Placement | None, int]:
        table = self.table
        if not table:
            return None, 0  # (never in a playout: the start tile is on the table)
        rules, get, fits = self.rules, table._digits.get, _fitting()
        held = {tile.digits for tile in tiles}
        best: tuple | None = None
        chosen: Tile | None = None
        top = -1
        for cell in table._frontier:  # the greedy bot's choice, ties broken the same way
            a, b, c = cell_corners(cell)
            bonus = -1
            for digits, tile, rotation in fits.get((get(a), get(b), get(c)), ()):
                if digits not in held:
                    continue
                if bonus < 0:
                    bonus = _bonus_points(rules, table, cell)
                points = tile.value + bonus
                key = (digits, cell, rotation)
                if points > top or (points == top and key < best):  # type: ignore[operator]
                    best, top, chosen = key, points, tile
        if best is None or chosen is None:
            return None, 0
        placement = Placement(chosen, best[1], best[2])
        if len(self.hands[player]) == 1:
            top += rules.going_out_bonus + sum(
                t.value for q, hand in enumerate(self.hands) if q != player for t in hand)
        return placement, top

    def place(self, player: int, placement: Placement, points: int) -> None:
        self.table.place(placement)
        self.hands[player].remove(placement.tile)
        self.gain[player] += points if self.rules.keep_score else 0
        if not self.hands[player]:
            self.over = True

    def turn(self, player: int) -> None:
        rules, hand = self.rules, self.hands[player]
        placement, points = self._best(player, hand)
        if placement is not None:
            self.place(player, placement, points)
            return
        draws = 0
        while self.pool and (rules.max_draws is None or draws < rules.max_draws):
            tile = self.pool.pop()
            hand.append(tile)
            draws += 1
            self.gain[player] -= rules.draw_penalty
            placement, points = self._best(player, [tile])
            if placement is not None:
                self.place(player, placement, points)
                return
        self.gain[player] -= rules.failed_draws_penalty if draws else rules.empty_pool_penalty
        if not self.pool and not any(self.table.can_place_any(h) for h in self.hands):
            self.over = True
            totals = [sum(t.value for t in h) for h in self.hands]
            low, everyone = min(totals), sum(totals)
            for q, total in enumerate(totals):
                if total == low and len(totals) > 1:
                    self.gain[q] += everyone - 2 * total


_ZERO = Tile(0, 0, 0)


def _start_rank(tile: Tile) -> tuple[bool, tuple[int, tuple[int, ...]]]:
    """Which dealt tile starts a round under ``highest_triple``: the highest one by
    this key (a triple above any other tile, then :attr:`Tile.rank_key`)."""
    return tile.kind == "triple", tile.rank_key


def _fits_now(then: Table, index: dict[tuple, frozenset[Tile]]) -> Iterator[Tile]:
    """The tiles of ``index`` (:func:`_pattern_sets`) that fit somewhere on ``then``."""
    for cell in then._frontier:
        yield from index.get(then.required(cell), _NONE)


def _outscoring(rules: RuleSet, then: Table, index: dict[tuple, frozenset[Tile]],
                made: Placement, margin: int) -> Iterator[tuple[Tile, int]]:
    """(tile, least) for each tile of ``index`` that would have scored at least
    ``margin`` points more than ``made`` somewhere on ``then``; ``least`` is the lowest
    tile value that does so in that cell (its bonuses counted)."""
    scored = made.tile.value + _bonus_points(rules, then, made.cell)
    for cell in then._frontier:
        fitting = index.get(then.required(cell), _NONE)
        if fitting:
            least = scored + margin - _bonus_points(rules, then, cell)
            for t in fitting:
                if t.value >= least:
                    yield t, least


def _skipped_bonuses(game: Game, player: int, tiles: list[Tile], margin: int,
                     turns: int = 1) -> list[Tile]:
    """``tiles`` less those ``player`` would have scored ``margin`` points more with on
    one of their latest ``turns`` turns than the placement they made (a player who
    leaves a hexagon is taken not to hold the tile that completes it). Only turns
    since their latest draw count (the tiles in their hand now were all in it then).
    Public facts only: the table and the log. Unchanged when their latest turn was
    not a plain placement, or when too few tiles would be left for their hand.
    """
    log = game.log
    start = max((i + 1 for i, item in enumerate(log) if item[2] == "round_end"), default=0)
    mine = [i for i in range(start, len(log)) if log[i][1] == player]
    if not mine or log[mine[-1]][2] != "place":
        return tiles
    drew = [i for i in mine if log[i][2] == "draw"]  # (a drawn tile was not chosen)
    read = [i for i in mine if log[i][2] == "place" and (not drew or i > drew[-1])
            and not any(log[j][0] == log[i][0] for j in drew)]
    read = read[-turns:]
    if not read:
        return tiles
    order = game.table.order
    places = [i for i in range(start, len(log)) if log[i][2] == "place"]
    before = len(order) - len(places)  # tiles put down without a move (solitaire)
    then = Table()
    for placement in order[:before]:
        then.place(placement)
    index = _pattern_sets(tiles)
    ruled: set[Tile] = set()
    for k, i in enumerate(places):
        if i in read and then:
            ruled.update(t for t, _least in _outscoring(game.rules, then, index,
                                                        order[before + k], margin))
        then.place(order[before + k])
    kept = [t for t in tiles if t not in ruled]
    return kept if len(kept) >= len(game.hands[player]) else tiles


def _arrivals(game: Game, player: int, tiles: list[Tile],
              margin: int) -> tuple[dict[Tile, int], list[int]]:
    """When each of ``tiles`` could have come into ``player``'s hand, read from the round's
    public log as if they placed greedily: a tile that would have scored ``margin``
    points more than a placement they made, or that would have fitted when they drew
    or passed, was not in their hand then, so it came with a later draw.

    Returns, for each tile that can be in their hand now, the first arrival it may
    have (0: the deal, ``k``: their ``k``-th draw of the round or later), and how many
    kept tiles each arrival brought at most (the deal: no limit). Which tiles were
    drawn is never looked at.
    """
    log = game.log
    start = max((i + 1 for i, item in enumerate(log) if item[2] == "round_end"), default=0)
    order = game.table.order
    places = sum(1 for item in log[start:] if item[2] == "place")
    then = Table()
    for placement in order[:len(order) - places]:  # tiles put down without a move
        then.place(placement)
    index = _pattern_sets(tiles)
    last_wrong: dict[Tile, int] = {}  # the first arrival a tile may have had
    if (game.rules.start_rule == "highest_triple" and places and len(order) == places
            and order[0].tile != _ZERO):
        # the start tile was the highest triple dealt (else the highest tile, and no
        # triple was dealt): a higher one came with a draw
        begun = _start_rank(order[0].tile)
        for t in tiles:
            if _start_rank(t) > begun:
                last_wrong[t] = 1
    capacity = [len(tiles)]
    drawn_now: dict[int, int] = {}
    placed = len(order) - places
    for item in log[start:]:
        turn, who, kind = item[0], item[1], item[2]
        if who == player and kind == "draw":
            if turn not in drawn_now:  # a new draw: nothing held fitted, nor drawn tiles
                drawn_now[turn] = len(capacity)
                capacity.append(0)
                for t in _fits_now(then, index):
                    last_wrong[t] = len(capacity)
            capacity[drawn_now[turn]] += 1
        elif who == player and kind == "pass":
            for t in _fits_now(then, index):
                last_wrong[t] = len(capacity)  # (no draw can follow: the pool is empty)
        if kind == "place":
            made = order[placed]
            if turn in drawn_now:
                capacity[drawn_now[turn]] -= 1  # the tile that fitted was placed at once
            elif who == player and then:
                for t, least in _outscoring(game.rules, then, index, made, margin):
                    # (margin 0: ties too, where greedy play takes the lower tile)
                    if margin or t.value > least or t.digits < made.tile.digits:
                        last_wrong[t] = len(capacity)
            then.place(made)
            placed += 1
    first = {t: last_wrong.get(t, 0) for t in tiles if last_wrong.get(t, 0) < len(capacity)}
    return first, capacity


def _possible(hand: list[Tile], first: dict[Tile, int], capacity: list[int]) -> bool:
    """Whether every tile of ``hand`` can have arrived no earlier than ``first`` says,
    with no arrival bringing more than its ``capacity`` (:func:`_arrivals`)."""
    need = 0
    room = 0
    for slot in range(len(capacity) - 1, 0, -1):
        need += sum(1 for t in hand if first[t] == slot)
        room += capacity[slot]
        if need > room:
            return False
    return True


#: How many times a guessed hand is redrawn until its tiles' arrivals are possible.
_REDRAWS = 30


class PlannerBot(Bot):
    """The strongest player: tries its most promising placements on guessed deals.

    It ranks its placements with :class:`CautiousBot` and keeps the best ``keep``.
    Then, ``samples`` times, it deals the tiles it has not seen at random (the next
    player's hand only from tiles :func:`hand_candidates` allows; the pool in a random
    order), and for
    each kept placement plays the round on with greedy players for
    ``horizon`` turns. A placement's worth is the mean of its points minus the best
    opponent's over those playouts, less ``hand_weight`` times the value it would
    still hold beyond the opponent's, plus ``prior_weight`` times the cautious score.
    Every placement sees the same guessed deals, so chance cancels out between them.

    Reading the next player's hand: with ``exact_reading`` (the default) it reads
    every turn of theirs in the round as a greedy player's (:func:`_arrivals`): a
    tile that would have scored ``read_margin`` points more than a placement they
    made (``0``: more, or as much with a lower tile), or that would have fitted when
    they drew or passed, or a triple above the start tile, came later with a draw
    if at all, and a guessed hand must be one their draws could have brought
    (:func:`_possible`). Without it, a tile that would have earned them
    ``read_margin`` points more than one of their latest ``read_turns`` placements
    is left out (:func:`_skipped_bonuses`). A reading that leaves too few tiles for
    their hand (a player who does not play greedily) is not used.

    Only public facts and its own hand go into a guess, and the guesses come from
    its own generator (seeded by ``seed``, the round and the turn), so the same
    position gives the same move. With a ``budget`` (seconds of ``clock``) it stops
    guessing when the budget is spent, after at least one guess.

    >>> PlannerBot(seed=1).name
    'planner'
    """

    name = "planner"

    def __init__(self, seed: int = 0, clock: Clock | None = None, budget: float | None = None,
                 samples: int = 24, horizon: int = 6, keep: int = 4,
                 hand_weight: float = 0.5, prior_weight: float = 0.2,
                 read_margin: int | None = 0, read_turns: int = 1,
                 exact_reading: bool = True) -> None:
        self.seed = seed
        self.exact_reading = exact_reading
        self.read_margin, self.read_turns = read_margin, read_turns
        self.clock, self.budget = clock, budget
        self.samples, self.horizon, self.keep = samples, horizon, keep
        self.hand_weight, self.prior_weight = hand_weight, prior_weight
        self.cautious = CautiousBot()
        #: How many guessed deals the last :meth:`choose` played out.
        self.last_samples = 0

    def __repr__(self) -> str:
        return f"PlannerBot(seed={self.seed})"

    def choose(self, game: Game) -> Action:
        self.last_samples = 0
        placements = game.legal_placements()
        if not placements:
            return _fallback(game)
        me, hand = game.current, game.hands[game.current]
        if len(placements) == 1 or len(hand) == 1 or game.players == 1:
            return CautiousBot().choose(game) if len(placements) > 1 else (
                "place", placements[0])
        start = self.clock() if self.clock and self.budget is not None else 0.0
        prior = self.cautious.scores(game, sorted(placements, key=_order))
        kept = sorted(prior, key=prior.__getitem__, reverse=True)[:self.keep]
        if len(kept) == 1:
            return ("place", kept[0])
        seen = set(hand) | set(game.table.tiles())
        unseen = [t for t in all_tiles() if t not in seen]
        n, nxt = game.players, (me + 1) % game.players
        narrowed = hand_candidates(game, nxt, unseen)
        if self.read_margin is not None and not self.exact_reading:
            narrowed = _skipped_bonuses(game, nxt, narrowed, self.read_margin,
                                        self.read_turns)
        arrivals = None
        if self.exact_reading and self.read_margin is not None:
            first, capacity = _arrivals(game, nxt, narrowed, self.read_margin)
            if len(first) >= len(game.hands[nxt]):
                narrowed = [t for t in narrowed if t in first]
                arrivals = (first, capacity)
        rng = random.Random(f"{self.seed}:{game.round}:{game.turn}:{game.drawn}")
        now = [game.points_for(p) for p in kept]
        totals = [0.0] * len(kept)
        done = 0
        while done < self.samples:
            if done and self.clock and self.budget is not None and (
                    self.clock() - start >= self.budget):
                break
            hands, pool = self._guess(game, hand, unseen, narrowed, nxt, rng, arrivals)
            for i, placement in enumerate(kept):
                playout = _Playout(game.rules, game.table.copy(), [list(h) for h in hands],
                                   list(pool))
                playout.place(me, placement, now[i])
                player = me
                for _ in range(self.horizon):
                    if playout.over:
                        break
                    player = (player + 1) % n
                    playout.turn(player)
                totals[i] += self._worth(playout, me)
            done += 1
        self.last_samples = done
        worth = [totals[i] / done + self.prior_weight * prior[p] for i, p in enumerate(kept)]
        return ("place", kept[max(range(len(kept)), key=worth.__getitem__)])

    @staticmethod
    def _guess(game: Game, hand: list[Tile], unseen: list[Tile], narrowed: list[Tile],
               nxt: int, rng: random.Random,
               arrivals: tuple[dict[Tile, int], list[int]] | None = None,
               ) -> tuple[list[list[Tile]], list[Tile]]:
        """Hands for the others and a pool order, drawn from the unseen tiles (the next
        player's, if ``arrivals`` are given, redrawn a few times until it could have
        come to them that way, see :func:`_possible`)."""
        hands: list[list[Tile]] = [list(hand) if q == game.current else []
                                   for q in range(game.players)]
        rest = set(unseen)
        for q in [nxt] + [q for q in range(game.players) if q not in (game.current, nxt)]:
            size = len(game.hands[q])
            choices = [t for t in (narrowed if q == nxt else unseen) if t in rest]
            if len(choices) < size:
                choices = [t for t in unseen if t in rest]
            hands[q] = rng.sample(choices, size)
            if q == nxt and arrivals is not None:
                for _ in range(_REDRAWS):
                    if all(t in arrivals[0] for t in hands[q]) and _possible(
                            hands[q], *arrivals):
                        break
                    hands[q] = rng.sample(choices, size)
            rest.difference_update(hands[q])
        pool = [t for t in unseen if t in rest]
        rng.shuffle(pool)
        return hands, pool

    def _worth(self, playout: _Playout, me: int) -> float:
        gain = playout.gain
        others = [q for q in range(len(gain)) if q != me]
        rival = max(others, key=gain.__getitem__)
        value = float(gain[me] - gain[rival])
        if not playout.over:
            value -= self.hand_weight * (sum(t.value for t in playout.hands[me])
                                         - sum(t.value for t in playout.hands[rival]))
        return value


#: The bots a setup panel offers, by name.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "planner": PlannerBot}


def _what(name: str) -> str:
    """What a level does, in words."""
    if name == "easy":
        return _("Plays the lowest-scoring tile that fits, so it leaves hexagons and bridges "
                 "to others: a first opponent for beginners.")
    if name == "medium":
        return _("Always takes the most points it can score now, tile and bonus, without "
                 "looking further ahead.")
    return _("Plays its best few moves on for six turns over {samples} guessed deals of the "
             "tiles it cannot see, reading what the next player holds from the points "
             "they left.").format(samples=HARD_SAMPLES)


def _student_words(name: str, figures: Mapping[str, float]) -> str:
    """What a level plays like and how often it won, in a student's words."""
    won = games_won(figures["rate"])
    if name == "easy":
        return _("For beginners: plays the tile that scores least, so it often leaves "
                 "hexagons and bridges to you. Wins {won} against a player who places "
                 "tiles at random.").format(won=won)
    if name == "medium":
        return _("Always takes the most points it can score now, without looking ahead. "
                 "Wins {won} against the easy bot.").format(won=won)
    return _("Looks six turns ahead and guesses the tiles you hold from the moves you "
             "made. Wins {won} against the medium bot.").format(won=won)


def _measured_words(name: str, figures: Mapping[str, float]) -> str:
    # most turns are quick (one tile fits, or none), so the 99th percentile says more
    ms = format_number(figures["p99"], 1)
    rate, games = format_number(figures["rate"]), format_number(figures["games"])
    if name == "easy":
        measured = _("Wins {rate}% of {games} two-player games against random placements; "
                     "under {ms} ms for 99 moves in 100 (one core).").format(
            rate=rate, games=games, ms=ms)
    else:
        measured = _("Wins {rate}% of {games} two-player games against the level below; "
                     "under {ms} ms for 99 moves in 100 (one core).").format(
            rate=rate, games=games, ms=ms)
    return f"{_what(name)} {measured}"


#: Guessed deals a hard move plays out, and its thinking budget (CPU seconds).
HARD_SAMPLES, HARD_BUDGET = 24, 0.25

#: What ``bench/levels.py`` measured for each level (two-player pressman games,
#: each deal played in both seats, against the level below or, for ``easy``, the
#: random bot; CPU time per move: the 99th percentile ``p99``, the median ``ms``).
LEVEL_FIGURES: dict[str, dict[str, float]] = {
    "easy": {"rate": 41.6, "games": 1000, "ms": 0.03, "p99": 0.1},
    "medium": {"rate": 67.2, "games": 1000, "ms": 0.03, "p99": 0.1},
    "hard": {"rate": 74.1, "games": 1000, "ms": 0.03, "p99": 19.7},
}

#: The levels a set-up panel offers, weakest first. Only ``hard`` has a time budget
#: (``HARD_BUDGET`` seconds of ``clock`` a move); the others look at their own move
#: only, at a fixed cost, and never read the clock.
_LEVEL_BOTS: dict[str, Callable[[int, Clock], Bot]] = {
    "easy": lambda seed, clock: GentleBot(seed),
    "medium": lambda seed, clock: GreedyBot(),
    "hard": lambda seed, clock: PlannerBot(seed, clock, HARD_BUDGET, samples=HARD_SAMPLES),
}
LEVELS: dict[str, Level] = {
    name: Level(name, factory, LEVEL_FIGURES[name],
                lambda figures, name=name: _student_words(name, figures),
                lambda figures, name=name: _measured_words(name, figures))
    for name, factory in _LEVEL_BOTS.items()
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: ``"random"``, ``"greedy"`` or ``"planner"``.

    >>> make_bot("greedy")
    GreedyBot()
    """
    check_choice("bot", name, BOTS)
    if name in ("random", "planner"):
        return BOTS[name](seed)  # type: ignore[call-arg]
    return BOTS[name]()
