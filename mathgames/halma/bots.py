"""Computer players: a greedy bot and a search bot with a time budget.

Both measure progress with a *cost* per cell and player (:func:`cost_table`):
rows still to go to the apex of the target camp, plus a fifth of the distance
from the camp's axis. The target camp is exactly the set of cells of least
cost, so "lower the total cost" always leads home.

- :class:`GreedyBot` makes the move that lowers its cost most.
- :class:`SearchBot` looks ahead: alpha-beta search for two players, best-reply
  search (the one most harmful opponent move answers each of ours) for more,
  deepening until its time budget is used.

Neither stalls: when no move makes progress, a bot heads for the nearest free
cell of its target camp, and otherwise moves at random (seeded).

>>> from mathgames.halma.game import Game
>>> game = Game("star", players=2, move_limit=400)
>>> bots = [GreedyBot(seed=1), SearchBot(time_budget=0.02, seed=2)]
>>> while not game.is_over():
...     _ = game.play(bots[game.to_move].choose(game))
>>> game.result().reason in ("win", "shared")
True
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace

from mathgames.core.errors import check_choice
from mathgames.core.i18n import format_number, translator
from mathgames.core.levels import Clock, Level, games_won
from mathgames.halma.game import PASS, Game, Move, pair_moves, shortest_path

__all__ = ["LEVELS", "STAR_LEVEL_FIGURES", "GreedyBot", "RandomBot", "SearchBot", "cost_table",
           "levels_on", "make_bot"]

_ = translator("halma")

WIN = 1e9


def cost_table(game: Game, player: int) -> tuple[float, ...]:
    """The progress cost of every cell for ``player`` (0 at the target apex).

    >>> g = Game("halma", players=2)
    >>> cost = cost_table(g, 0)
    >>> worst_inside = max(cost[c] for c in g.targets[0])
    >>> all(cost[c] > worst_inside for c in range(256) if c not in g.targets[0])
    True
    """
    cache = game.__dict__.setdefault("_cost_tables", {})
    if player not in cache:
        topo = game.topology
        corner = game.target_corners[player]
        rows = topo.rows_to(corner)
        ax, ay = topo.positions[topo.apexes[corner]]
        cx, cy = topo.positions[topo.center]
        length = math.hypot(ax - cx, ay - cy)
        ux, uy = (ax - cx) / length, (ay - cy) / length
        cache[player] = tuple(
            rows[c] + 0.2 * abs((x - ax) * uy - (y - ay) * ux)
            for c, (x, y) in enumerate(topo.positions))
    return cache[player]


def _to_move(game: Game, pair: tuple[int, int] | None) -> Move:
    if pair is None:
        return PASS
    start, end = pair
    lock = game.target_masks[game.to_move]
    path = shortest_path(game.occ, start, end, game.topology, lock if lock[start] else None)
    names = game.topology.names
    return Move(tuple(names[c] for c in path))


class _Bot(ABC):
    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        """The move this bot makes in ``game`` (a legal :class:`Move`)."""
        return _to_move(game, self.choose_pair(game))

    @abstractmethod
    def choose_pair(self, game: Game) -> tuple[int, int] | None:
        """The (from, to) cells of this bot's move, or None to pass."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(_Bot):
    """Any legal move, uniformly at random (for tests and as a weak opponent).

    >>> game = Game("halma", 2)
    >>> RandomBot(seed=3).choose(game) in game.legal_moves()
    True
    """

    name = "random"

    def choose_pair(self, game: Game) -> tuple[int, int] | None:
        pairs = game.pair_moves()
        return self.rng.choice(pairs) if pairs else None


def _fresh(game: Game, pairs: list[tuple[int, int]], memory: int = 16
           ) -> list[tuple[int, int]]:
    """The moves that do not bring the mover's pieces back to where they stood
    after one of its last ``memory`` moves (this breaks cycles); all if none do."""
    p = game.to_move
    config = set(game.cells[p])
    current = frozenset(config)
    seen = {current}
    count = 0
    for who, path, _finished in reversed(game.history):
        if who != p or not path:
            continue
        config.discard(path[-1])
        config.add(path[0])
        seen.add(frozenset(config))
        count += 1
        if count >= memory:
            break
    fresh = [(a, b) for a, b in pairs if (current - {a}) | {b} not in seen]
    return fresh or pairs


def _fallback(game: Game, pairs: list[tuple[int, int]], rng: random.Random) -> tuple[int, int]:
    """When nothing makes progress: head for the nearest free cell of the target."""
    p = game.to_move
    topo, target = game.topology, game.target_masks[p]
    free = [c for c in game.targets[p] if not game.occ[c]]
    outside = [pr for pr in pairs if not target[pr[0]]]
    if free and outside:
        dist = [-1] * topo.size
        queue = deque(free)
        for c in free:
            dist[c] = 0
        while queue:
            c = queue.popleft()
            for n in topo.neighbours[c]:
                if dist[n] < 0:
                    dist[n] = dist[c] + 1
                    queue.append(n)
        best = max(dist[a] - dist[b] for a, b in outside)
        if best > 0:
            return rng.choice([pr for pr in outside if dist[pr[0]] - dist[pr[1]] == best])
        return rng.choice(outside)
    return rng.choice(pairs)


class GreedyBot(_Bot):
    """The move that lowers this player's cost the most (ties broken at random)."""

    name = "greedy"

    def choose_pair(self, game: Game) -> tuple[int, int] | None:
        pairs = game.pair_moves()
        if not pairs:
            return None
        cost = cost_table(game, game.to_move)
        pairs = _fresh(game, pairs)
        best = max(cost[a] - cost[b] for a, b in pairs)
        if best <= 1e-9:
            return _fallback(game, pairs, self.rng)
        return self.rng.choice([pr for pr in pairs if cost[pr[0]] - cost[pr[1]] >= best - 1e-9])


class _Timeout(Exception):
    pass


class SearchBot(_Bot):
    """Looks ahead within ``time_budget`` seconds a move (iterative deepening).

    Two players: alpha-beta over the ``width`` most promising moves of each
    node (``root_width`` at the root, so that a quiet move that prepares a long
    jump is still considered). More players: best-reply search (our move, then the single most
    harmful move of any opponent, then ours again...). The score is how far the
    best opponent still has to go minus how far we still have to go.
    """

    name = "search"

    def __init__(self, time_budget: float = 0.25, max_depth: int = 4, width: int = 10,
                 root_width: int = 30, seed: int | None = None,
                 clock: Clock = time.process_time) -> None:
        super().__init__(seed)
        self.time_budget = time_budget
        self.clock = clock
        self.max_depth = max_depth
        self.width = width
        self.root_width = root_width
        self.last_depth = 0

    def __repr__(self) -> str:
        return f"SearchBot(time_budget={self.time_budget!r}, max_depth={self.max_depth!r})"

    def choose_pair(self, game: Game) -> tuple[int, int] | None:
        me = game.to_move
        pairs = game.pair_moves()
        if not pairs:
            return None
        pairs = _fresh(game, pairs)
        self._setup(game)
        cost = self.costs[me]
        ordered = self._ordered(me, pairs)
        if cost[ordered[0][0]] - cost[ordered[0][1]] <= 1e-9:
            return _fallback(game, pairs, self.rng)
        self.deadline = self.clock() + self.time_budget
        best_pair = ordered[0]
        self.last_depth = 1
        for depth in range(2, self.max_depth + 1):
            try:
                value, pair = self._root(me, ordered, depth)
            except _Timeout:
                break
            best_pair, self.last_depth = pair, depth
            ordered = [pair] + [m for m in ordered if m != pair]
            if abs(value) >= WIN / 2:
                break
        return best_pair

    # -- internals --------------------------------------------------------------------------
    def _setup(self, game: Game) -> None:
        self.game = game
        self.topo = game.topology
        self.n = game.players
        self.occ = bytearray(game.occ)
        self.cells = [list(c) for c in game.cells]
        self.costs = [cost_table(game, p) for p in range(self.n)]
        self.masks = game.target_masks
        self.floor = []
        for p in range(self.n):
            best = sorted(self.costs[p][c] for c in game.targets[p])
            self.floor.append(sum(best[:len(self.cells[p])]))
        self.remaining = [sum(self.costs[p][c] for c in self.cells[p]) - self.floor[p]
                          for p in range(self.n)]
        self.nodes = 0

    def _ordered(self, p: int, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        cost = self.costs[p]
        # progress first; among equals, move the piece furthest behind
        return sorted(pairs, key=lambda pr: (cost[pr[1]] - cost[pr[0]], -cost[pr[0]]))

    def _moves(self, p: int) -> list[tuple[int, int]]:
        pairs = pair_moves(self.occ, self.cells[p], self.topo, self.masks[p])
        return self._ordered(p, pairs)[: self.width]

    def _make(self, p: int, a: int, b: int) -> None:
        other = self.occ[b]  # non-zero only in a swap (the swap rule): it goes to a
        self.occ[a] = other
        if other:
            self._shift(other - 1, b, a)
        self.occ[b] = p + 1
        self._shift(p, a, b)

    def _unmake(self, p: int, a: int, b: int) -> None:
        other = self.occ[a]  # a swapped piece goes back
        self.occ[b] = other
        if other:
            self._shift(other - 1, a, b)
        self.occ[a] = p + 1
        self._shift(p, b, a)

    def _shift(self, p: int, a: int, b: int) -> None:
        """Player ``p``'s piece moves from ``a`` to ``b`` in the search's lists."""
        cells = self.cells[p]
        cells[cells.index(a)] = b
        self.remaining[p] += self.costs[p][b] - self.costs[p][a]

    def _filled(self, p: int) -> bool:
        """The game's fill rule on the search's board."""
        return self.game.camp_filled(p, self.occ)

    def _score(self, me: int, depth_left: int) -> float:
        mine = self.remaining[me]
        if mine <= 1e-9 or (mine < 8 and self._filled(me)):
            return WIN + depth_left
        others = min(self.remaining[q] for q in range(self.n) if q != me)
        if others <= 1e-9:
            return -WIN - depth_left
        return others - mine

    def _check_time(self) -> None:
        self.nodes += 1
        if self.nodes % 64 == 0 and self.clock() > self.deadline:
            raise _Timeout

    def _root(self, me: int, ordered: list[tuple[int, int]], depth: int
              ) -> tuple[float, tuple[int, int]]:
        alpha, best_pair = -math.inf, ordered[0]
        for a, b in ordered[: max(self.root_width, 1)]:
            self._make(me, a, b)
            try:
                value = self._min(me, depth - 1, alpha, math.inf)
            finally:
                self._unmake(me, a, b)
            if value > alpha:
                alpha, best_pair = value, (a, b)
        return alpha, best_pair

    def _max(self, me: int, depth: int, alpha: float, beta: float) -> float:
        score = self._score(me, depth)
        if depth == 0 or abs(score) >= WIN / 2:
            return score
        self._check_time()
        # standing pat: a racer is never forced to make a worsening move (no zugzwang)
        if score > alpha:
            alpha = score
            if alpha >= beta:
                return alpha
        moves = self._moves(me)
        for a, b in moves:
            self._make(me, a, b)
            try:
                value = self._min(me, depth - 1, alpha, beta)
            finally:
                self._unmake(me, a, b)
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
        return alpha

    def _min(self, me: int, depth: int, alpha: float, beta: float) -> float:
        score = self._score(me, depth)
        if depth == 0 or abs(score) >= WIN / 2:
            return score
        self._check_time()
        replies = []
        for q in range(self.n):
            if q != me:
                replies.extend((q, a, b) for a, b in self._moves(q))
        if self.n > 2:  # best-reply search: the most harmful moves of all opponents
            replies.sort(key=lambda m: self.costs[m[0]][m[2]] - self.costs[m[0]][m[1]])
            replies = replies[: self.width]
        if not replies:
            return self._max(me, depth - 1, alpha, beta)
        for q, a, b in replies:
            self._make(q, a, b)
            try:
                value = self._max(me, depth - 1, alpha, beta)
            finally:
                self._unmake(q, a, b)
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
        return beta


BOT_KINDS = {"greedy": GreedyBot, "search": SearchBot, "random": RandomBot}


# -- levels --------------------------------------------------------------------------

def _student_words(name: str, figures: Mapping[str, float]) -> str:
    """What a level plays like and how often it won, in a student's words."""
    won = games_won(figures["rate"])
    if name == "easy":
        return _("For beginners: makes the move that brings a piece furthest towards home "
                 "now, without thinking of your reply. Wins {won} against a player who "
                 "moves at random.").format(won=won)
    if name == "medium":
        return _("Thinks of your best reply before it moves. Wins {won} against the "
                 "easy bot.").format(won=won)
    return _("Looks up to four moves ahead, its own and yours. Wins {won} against the "
             "medium bot.").format(won=won)


def _measured_words(figures: Mapping[str, float]) -> str:
    values = {"rate": format_number(figures["rate"]), "games": format_number(figures["games"]),
              # a twentieth of a millisecond is not "0.0"
              "ms": format_number(figures["ms"], 2 if figures["ms"] < 1 else 1)}
    if figures.get("below"):
        return _("Wins {rate}% of {games} two-player games on this board against the level "
                 "below; {ms} ms a move (median, one core).").format(**values)
    return _("Wins {rate}% of {games} two-player games on this board against random moves; "
             "{ms} ms a move (median, one core).").format(**values)


#: What ``bench/levels.py`` measured for each level on the Halma board, the dearer
#: of the two (2 players, 200 games a rung; median CPU time a move).
LEVEL_FIGURES: dict[str, dict[str, float]] = {
    "easy": {"rate": 100.0, "games": 200, "ms": 0.16, "below": 0},
    "medium": {"rate": 89.8, "games": 200, "ms": 3.18, "below": 1},
    "hard": {"rate": 100.0, "games": 200, "ms": 51.3, "below": 1},
}
#: The same run on the star (Chinese checkers).
STAR_LEVEL_FIGURES: dict[str, dict[str, float]] = {
    "easy": {"rate": 100.0, "games": 200, "ms": 0.05, "below": 0},
    "medium": {"rate": 94.2, "games": 200, "ms": 1.09, "below": 1},
    "hard": {"rate": 100.0, "games": 200, "ms": 16.0, "below": 1},
}

_LEVEL_BOTS: dict[str, Callable[[int, Clock], _Bot]] = {
    # the move that gains most now
    "easy": lambda seed, clock: GreedyBot(seed=seed),
    # two plies of alpha-beta (our move and the reply)
    "medium": lambda seed, clock: SearchBot(time_budget=0.05, max_depth=2, seed=seed,
                                            clock=clock),
    # up to four plies, within 0.25 s of CPU a move
    "hard": lambda seed, clock: SearchBot(time_budget=0.25, max_depth=4, seed=seed,
                                          clock=clock),
}

#: The levels a set-up panel offers, weakest first.
LEVELS: dict[str, Level] = {
    name: Level(name, factory, LEVEL_FIGURES[name],
                lambda figures, name=name: _student_words(name, figures), _measured_words)
    for name, factory in _LEVEL_BOTS.items()
}


def levels_on(board: str) -> dict[str, Level]:
    """The levels with the figures measured on ``board`` (``"halma"`` or ``"star"``):
    the same bots, described from that board's games.

    >>> levels_on("star")["medium"].figures["rate"], levels_on("halma")["medium"].figures["rate"]
    (94.2, 89.8)
    """
    if board != "star":
        return LEVELS
    return {name: replace(level, figures=STAR_LEVEL_FIGURES[name])
            for name, level in LEVELS.items()}


def make_bot(kind: str, seed: int | None = None, **options: float) -> _Bot:
    """A bot by kind: ``"greedy"``, ``"search"`` or ``"random"``.

    >>> make_bot("search", time_budget=0.1)
    SearchBot(time_budget=0.1, max_depth=4)
    """
    return BOT_KINDS[check_choice("bot", kind, BOT_KINDS)](seed=seed, **options)
