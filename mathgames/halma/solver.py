"""The solitaire crossing: one player's pieces alone, camp to opposite camp, in few moves.

:func:`solve_crossing` runs a *beam search*: from the positions reached after
``d`` moves it keeps the ``width`` most advanced ones (least total rows to go,
a symmetric position counted once) and expands them all. It is not guaranteed
to find the shortest crossing, but with a wide beam it finds very good ones:
on the 10-piece star it finds 27 moves, the proven minimum (G. Bell, 2009).

:func:`meet_crossing` makes the second half out of the first: the board turned
half round swaps the camps and a move played backwards is a move, so a path to a
position that is its own turned image, played again backwards on the turned board,
finishes the crossing. Steering a beam towards such positions found the 46-move
crossing of 19 Halma pieces (the plain beam's best was 48).

:func:`advance_lower_bound` is a better proof (28 moves for 19 Halma pieces,
23 for 13, 19 on the star): the most advanced piece gains at most two rows a
move on the Halma board (one on the star), so the first moves cannot bring any
piece into the target camp, and after them every piece still has to enter it.

:func:`parity_lower_bound` is a simple proof that some number of moves is
needed: a jump moves a piece by two cells, so it never changes the *parity
class* of its cell (both coordinates' parities on the Halma board; the
equivalent four classes of the star's triangular lattice). Every piece moves at
least once, and a piece that must change class needs a step besides the jumps
(a single step cannot cross the board).

>>> parity_lower_bound("star")   # the classes match: only "every piece moves" is left
10
>>> from mathgames.halma.solutions import best_crossing
>>> moves = best_crossing("star")
>>> len(moves)
27
>>> replay_crossing("star", moves).result().reason
'win'
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from mathgames.core.errors import MathgamesError
from mathgames.halma.game import Game, Move, pair_moves, shortest_path
from mathgames.halma.topology import Topology

__all__ = ["AdvanceBound", "Crossing", "advance_bound", "advance_lower_bound", "crossing_game",
           "meet_crossing", "parity_class", "parity_lower_bound", "replay_crossing",
           "shorten_crossing", "solve_crossing"]


@dataclass(frozen=True)
class Crossing:
    """A crossing found by the solver: the moves (as text) and how long it took."""

    board: str
    pieces: int
    moves: tuple[str, ...]
    seconds: float
    width: int

    def __len__(self) -> int:
        return len(self.moves)


def crossing_game(board: str | Topology = "star", pieces: int | None = None) -> Game:
    """The solitaire crossing as a one-player :class:`Game` (Halma: 19 or 13 pieces).

    >>> g = crossing_game("halma", 13)
    >>> g.corners, g.target_corners, g.pieces
    (('SW',), ('NE',), 13)
    """
    return Game(board, players=1, pieces=pieces)


def replay_crossing(board: str, moves: list[str] | tuple[str, ...],
                    pieces: int | None = None) -> Game:
    """Play a crossing's moves (checked) and return the game."""
    game = crossing_game(board, pieces)
    for move in moves:
        game.play(move)
    return game


def parity_class(topology: Topology, cell: int) -> int:
    """The class (0-3) of a cell that jumps never change.

    >>> from mathgames.halma.topology import HALMA
    >>> parity_class(HALMA, HALMA.index("a1")) == parity_class(HALMA, HALMA.index("c3"))
    True
    """
    x, y = topology.coords[cell]
    if topology.key == "star":  # doubled coordinates -> the two axial coordinates
        x, y = (x - y) // 2, y
    return (x % 2) + 2 * (y % 2)


def parity_lower_bound(board: str | Topology = "star", pieces: int | None = None) -> int:
    """A lower bound on the moves of a solitaire crossing (see the module text).

    >>> parity_lower_bound("halma", 19), parity_lower_bound("halma", 13)
    (22, 14)
    """
    game = crossing_game(board, pieces)
    topo = game.topology
    home = [0] * 4
    target = [0] * 4
    for c in game.homes[0]:
        home[parity_class(topo, c)] += 1
    for c in game.targets[0]:
        target[parity_class(topo, c)] += 1
    must_change = game.pieces - sum(min(h, t) for h, t in zip(home, target, strict=True))
    return game.pieces + must_change


class AdvanceBound(NamedTuple):
    """The figures of :func:`advance_lower_bound`'s proof for one crossing.

    ``gain``: the most rows the front can gain in one move (K); ``front``: the
    home camp's most advanced row (M0); ``nearest``: the target camp's nearest
    row (L); ``blind``: the first moves, none of which can bring a piece into the
    target (F); ``pieces``; ``bound`` = ``blind + pieces``. Rows are counted from
    the home apex's row (0) towards the target apex's (``far``).
    """

    gain: int
    front: int
    nearest: int
    far: int
    blind: int
    pieces: int
    bound: int


def advance_bound(board: str | Topology = "star", pieces: int | None = None) -> AdvanceBound:
    """The figures behind :func:`advance_lower_bound` (see its proof).

    >>> advance_bound("halma", 19)
    AdvanceBound(gain=2, front=5, nearest=25, far=30, blind=9, pieces=19, bound=28)
    >>> b = advance_bound("star")
    >>> b.gain, b.front, b.nearest, b.blind, b.bound
    (1, 3, 13, 9, 19)
    """
    game = crossing_game(board, pieces)
    topo = game.topology
    rows = topo.rows_to(game.target_corners[0])
    far = max(rows)
    progress = [far - r for r in rows]
    k = max(max((progress[n] - progress[c] for c in range(topo.size)
                 for n in topo.neighbours[c]), default=0),
            max((progress[land] - progress[over] for c in range(topo.size)
                 for over, land in topo.jumps[c]), default=0))
    front = max(progress[c] for c in game.homes[0])
    nearest = min(progress[c] for c in game.targets[0])
    blind = max(-(-(nearest - front) // k) - 1, 0)  # moves j >= 1 with front + k * j < nearest
    return AdvanceBound(k, front, nearest, far, blind, game.pieces, blind + game.pieces)


def advance_lower_bound(board: str | Topology = "star", pieces: int | None = None) -> int:
    """A lower bound on the moves of a solitaire crossing: the front advances slowly.

    Measure each cell's *progress* as the rows it lies beyond the target apex's
    farthest row (Halma: the anti-diagonal ``x + y`` towards the far corner;
    star: the row). Let ``M`` be the most advanced piece's progress.

    1. *One move raises M by at most K* (K = 2 on the Halma board, 1 on the star).
       A step moves to a neighbour, at most K rows on. A jump from ``a`` over ``h``
       lands on ``b = 2h - a``, so its progress is ``h``'s progress plus the
       difference ``h - a``, at most K; the piece jumped over is another piece
       (it stands still during the move), so its progress is at most ``M``, and so
       is every landing of a chain: each lands at most K beyond M.
    2. After ``j`` moves no piece is beyond ``M0 + K * j`` (``M0``: the home camp's
       front). A piece entering the target camp lands at least on its nearest row
       ``L``, so none of the first ``F`` moves, those with ``M0 + K * j < L``, can
       bring a piece into the target.
    3. Every piece starts outside the target and must enter it at least once, one
       piece a move: at least ``pieces`` moves after the first ``F``.

    So a crossing takes at least ``F + pieces`` moves (a proof, not a search:
    the table is computed from the board's own step and jump tables;
    :func:`advance_bound` gives K, M0, L and F).

    >>> advance_lower_bound("halma", 19), advance_lower_bound("halma", 13)
    (28, 23)
    >>> advance_lower_bound("star")   # the proven minimum is 27 (Bell 2009)
    19
    """
    return advance_bound(board, pieces).bound


def _mirror(topo: Topology) -> list[int]:
    index = {c: i for i, c in enumerate(topo.coords)}
    if topo.key == "star":
        return [index[(-x, y)] for x, y in topo.coords]
    return [index[(y, x)] for x, y in topo.coords]


def _zobrist(rng: random.Random, size: int,
             images: Sequence[Sequence[int]] = ()) -> list[list[int]]:
    """A random 64-bit key for each cell (drawn from ``rng``), then the same keys seen
    through each of ``images`` (cell ``c`` gets the key of its image): a position's hash
    under a symmetry is the XOR of its cells' keys in that table."""
    keys = [rng.getrandbits(64) for _ in range(size)]
    return [keys, *([keys[image[c]] for c in range(size)] for image in images)]


def _hash(keys: Sequence[int], cells: Sequence[int]) -> int:
    """The XOR of ``cells``' keys."""
    h = 0
    for c in cells:
        h ^= keys[c]
    return h


def solve_crossing(board: str = "star", pieces: int | None = None, width: int = 4000,
                   lateral: float = 0.0, compact: float = 0.0, seed: int = 0,
                   max_moves: int = 200,
                   time_limit: float | None = None,
                   prefix: Sequence[str] = (),
                   forget_dropped: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> Crossing | None:
    """Beam search for a short solitaire crossing; None if none found in time.

    ``width``: positions kept per move. The score of a position is its rows to
    go, plus ``lateral`` times the pieces' distances from the board's axis, plus
    ``compact`` times the rows between the most and the least advanced piece (a
    compact group keeps its ladders). ``progress(depth, best)`` is told each
    level's best score. ``prefix``: moves played first (checked); the search
    continues from there (``max_moves`` more at most) and the crossing found
    starts with them, so a long search can be spent on the rest of a good one.
    A position once generated is never generated again, unless
    ``forget_dropped``: then only the positions kept in the beam are remembered
    (a wide beam's memory stays small; a dropped position may come back later).

    >>> found = solve_crossing("star", width=200)
    >>> found is not None and 27 <= len(found) <= 40
    True
    """
    start_time = time.perf_counter()
    game = replay_crossing(board, tuple(prefix), pieces)
    topo = game.topology
    rows = topo.rows_to(game.target_corners[0])
    score = _cell_scores(game, rows, lateral)
    target = game.target_masks[0]
    rng = random.Random(seed)
    zobrist, zmirror = _zobrist(rng, topo.size, [_mirror(topo)])
    cells0 = tuple(sorted(game.cells[0]))
    h0, m0 = _hash(zobrist, cells0), _hash(zmirror, cells0)
    seen = {min(h0, m0)}
    # a level: list of (cells, hash, mirror hash, score)
    level = [(cells0, h0, m0, sum(score[c] for c in cells0))]
    parents: list[list[tuple[int, int, int]]] = []
    n_target = len(game.targets[0])
    for depth in range(1, max_moves + 1):
        candidates = []
        fresh = set() if forget_dropped else seen  # this level's new positions
        occ = bytearray(topo.size)
        for i, (cells, h, m, s) in enumerate(level):
            for c in cells:
                occ[c] = 1
            if compact:
                rs = sorted(rows[c] for c in cells)
                low, low2, high, high2 = rs[0], rs[1], rs[-1], rs[-2]
            for a, b in pair_moves(occ, cells, topo, target):
                key_h = h ^ zobrist[a] ^ zobrist[b]
                key_m = m ^ zmirror[a] ^ zmirror[b]
                key = key_h if key_h < key_m else key_m
                if key in seen or key in fresh:
                    continue
                fresh.add(key)
                new_score = s - score[a] + score[b]
                rank = new_score
                if compact:
                    ra, rb = rows[a], rows[b]
                    lo = low2 if ra == low else low
                    hi = high2 if ra == high else high
                    rank += compact * 1000 * (max(hi, rb) - min(lo, rb))
                candidates.append((rank, rng.random(), i, a, b, key_h, key_m, new_score))
            for c in cells:
                occ[c] = 0
        if not candidates:
            return None
        candidates.sort()
        kept = candidates[:width]
        if forget_dropped:
            seen.update(min(kh, km) for *_head, kh, km, _s in kept)
        new_level = []
        links = []
        for _rank, _r, i, a, b, key_h, key_m, s in kept:
            cells = level[i][0]
            new_cells = tuple(sorted(b if c == a else c for c in cells))
            new_level.append((new_cells, key_h, key_m, s))
            links.append((i, a, b))
            if sum(target[c] for c in new_cells) == n_target:
                parents.append(links)
                return _finish(game, parents, len(links) - 1, start_time, width, tuple(prefix))
        parents.append(links)
        level = new_level
        if progress is not None:
            progress(depth, kept[0][0])
        if time_limit is not None and time.perf_counter() - start_time > time_limit:
            return None
    return None


def _cell_scores(game: Game, rows: Sequence[int], lateral: float) -> list[int]:
    """A piece's cost on each cell, in thousandths of a row: its rows to go, and with
    ``lateral`` also a share of the greedy bot's cost of being off the straight way."""
    if not lateral:
        return [1000 * r for r in rows]
    from mathgames.halma.bots import cost_table

    table = cost_table(game, 0)
    return [round(1000 * (rows[c] + lateral * (table[c] - rows[c]) / 0.2))
            for c in range(game.topology.size)]


def _finish(game: Game, parents: list[list[tuple[int, int, int]]], last: int,
            start_time: float, width: int, prefix: tuple[str, ...] = ()) -> Crossing:
    pairs = _pairs_to(parents, len(parents), last)
    topo = game.topology
    texts = []
    for a, b in pairs:
        lock = game.target_masks[0]
        path = shortest_path(game.occ, a, b, topo, lock if lock[a] else None)
        game.push_unchecked(a, b, path)
        texts.append(str(Move(tuple(topo.names[c] for c in path))))
    return Crossing(topo.key, game.pieces, prefix + tuple(texts),
                    time.perf_counter() - start_time, width)


def _around(cells: tuple[int, ...], depth: int, topology: Topology,
            lock: bytearray) -> dict[int, tuple[int, int, int, int]]:
    """Every position within ``depth`` moves of ``cells`` (under the goal ``lock``), by
    bit mask: ``mask -> (moves, previous mask, from, to)``.

    With a lock that forbids nothing, the moves are the *reverse* moves (a step or a
    jump chain is undone by its reverse), so the positions found are those from which
    ``cells`` can be reached.
    """
    start = 0
    for c in cells:
        start |= 1 << c
    found = {start: (0, -1, -1, -1)}
    frontier = [(start, cells)]
    occ = bytearray(topology.size)
    for d in range(1, depth + 1):
        nxt = []
        for mask, here in frontier:
            for c in here:
                occ[c] = 1
            for a, b in pair_moves(occ, here, topology, lock):
                new = mask ^ (1 << a) ^ (1 << b)
                if new not in found:
                    found[new] = (d, mask, a, b)
                    if d < depth:
                        nxt.append((new, tuple(b if c == a else c for c in here)))
            for c in here:
                occ[c] = 0
        frontier = nxt
    return found


def shorten_crossing(board: str, moves: Sequence[str], pieces: int | None = None,
                     depth: int = 2) -> tuple[str, ...]:
    """A crossing no longer than ``moves``, shortened where a meet in the middle finds
    a short cut: the moves between positions ``P[i]`` and ``P[j]`` of the crossing are
    replaced by fewer whenever some position lies within ``depth`` moves of ``P[i]``
    (forwards) and of ``P[j]`` (backwards) with ``d1 + d2 < j - i``. Repeats until no
    window of the crossing can be shortened; every result is replayed and checked.

    >>> from mathgames.halma.solutions import best_crossing
    >>> moves = best_crossing("star")
    >>> detour = moves[:3] + ("f6-g6", "g6-f6") + moves[3:]   # a step there and back
    >>> len(detour), len(shorten_crossing("star", detour))
    (29, 27)
    """
    best = tuple(moves)
    game = replay_crossing(board, best, pieces)
    if game.result().reason != "win":
        raise ValueError("not a crossing: the moves do not fill the target camp")
    topo = game.topology
    free = bytearray([1]) * topo.size
    improved = True
    while improved:
        improved = False
        game = crossing_game(board, pieces)
        lock = game.target_masks[0]
        positions = [tuple(game.cells[0])]
        for move in best:
            game.play(move)
            positions.append(tuple(game.cells[0]))
        n = len(best)
        backwards: dict[int, dict] = {}
        for i in range(n - 1):
            ahead = _around(positions[i], depth, topo, lock)
            for j in range(min(n, i + 2 * depth + 1), i + 1, -1):
                if j not in backwards:
                    backwards[j] = _around(positions[j], depth, topo, free)
                behind = backwards[j]
                for mask, (d1, *_rest) in ahead.items():
                    hit = behind.get(mask)
                    if hit is None or d1 + hit[0] >= j - i:
                        continue
                    shorter = _splice(board, pieces, best, i, j, mask, ahead, behind)
                    if shorter is not None:
                        best, improved = shorter, True
                        break
                if improved:
                    break
            backwards.pop(i, None)
            if improved:
                break
    return best


def _splice(board: str, pieces: int | None, moves: tuple[str, ...], i: int, j: int,
            middle: int, ahead: dict, behind: dict) -> tuple[str, ...] | None:
    pairs = []
    mask = middle
    while ahead[mask][0]:
        _d, mask, a, b = ahead[mask]
        pairs.append((a, b))
    pairs.reverse()
    mask = middle
    while behind[mask][0]:
        _d, mask_after, a, b = behind[mask]
        pairs.append((b, a))  # the reverse move a -> b undone: b -> a forwards
        mask = mask_after
    game = replay_crossing(board, moves[:i], pieces)
    topo = game.topology
    texts = []
    for a, b in pairs:
        lock = game.target_masks[0]
        path = shortest_path(game.occ, a, b, topo, lock if lock[a] else None)
        if path is None or game.is_over():
            return None
        game.push_unchecked(a, b, path)
        texts.append(str(Move(tuple(topo.names[c] for c in path))))
    try:
        for move in moves[j:]:
            game.play(move)
    except MathgamesError:
        return None
    if game.result().reason != "win":
        return None
    return moves[:i] + tuple(texts) + moves[j:]


def _turn(topo: Topology) -> list[int]:
    """The half turn of the board about its centre: it swaps a camp and the opposite one."""
    index = {c: i for i, c in enumerate(topo.coords)}
    sx = min(x for x, _ in topo.coords) + max(x for x, _ in topo.coords)
    sy = min(y for _, y in topo.coords) + max(y for _, y in topo.coords)
    return [index[(sx - x, sy - y)] for x, y in topo.coords]


def _unmatched(cells: Sequence[int], image: list[int]) -> int:
    here = set(cells)
    return sum(1 for c in cells if image[c] not in here)


def _unmatched_change(occ: bytearray, image: list[int], a: int, b: int) -> int:
    """The change of :func:`_unmatched` when the piece on ``a`` moves to ``b`` (``occ``:
    the position before the move)."""
    ia, ib = image[a], image[b]
    change = 0 if ia == a else (1 if occ[ia] else -1)
    if ib != b:
        change += -1 if occ[ib] and ib != a else 1
    return change


def meet_crossing(board: str = "star", pieces: int | None = None, width: int = 4000,
                  symmetry: float = 2.0, slack: float = 0.0, lateral: float = 0.0,
                  compact: float = 0.0, after: int = 0, bridge: int = 5, seed: int = 0,
                  max_moves: int = 100, time_limit: float | None = None,
                  prefix: Sequence[str] = (),
                  progress: Callable[[int, int], None] | None = None) -> Crossing | None:
    """A crossing made of two halves that are one path: the second half is the first
    one played backwards on the turned board.

    Turning the board half round (or turning it and reflecting it in its diagonal)
    swaps the home camp and the target camp, and a move played backwards is a move;
    so if positions ``P`` and ``Q`` are reached from the start in ``k`` and ``m``
    moves, and ``P`` is the turned ``Q``, the ``m`` moves to ``Q``, turned and
    played backwards in reverse order, lead from ``P`` into the target: a crossing
    of ``k + m`` moves. A beam search (as in :func:`solve_crossing`, ``width``
    positions a move) remembers every position it meets (kept or not) and looks each
    new position up among the turned ones; it steers towards positions that look like
    their own turned image: the score is the rows to go, not counted below half the journey
    (less ``slack`` rows), plus ``symmetry`` times the pieces whose turned cell is
    empty, counted from move ``after`` on; ``lateral`` and ``compact`` as in
    :func:`solve_crossing`. A kept position ``P`` reached in ``k`` moves with at most
    ``bridge`` pieces whose turned cell is empty is also tried as the middle: if
    those pieces can move straight onto the empty turned cells, one move each, ``P``
    becomes the turned ``P`` and the crossing takes ``2k`` moves plus those. Every
    crossing found is replayed and checked; the shortest is returned when no
    shorter one can follow. ``prefix``: moves played first (checked), by both halves
    (as in :func:`solve_crossing`, ``max_moves`` counts the moves after it).
    Memory: one dictionary entry per position met (19 Halma pieces, width 1,000,
    27 moves: about half a gigabyte at the end).

    >>> found = meet_crossing("star", width=300)
    >>> found is not None and 27 <= len(found) <= 40
    True
    >>> replay_crossing("star", found.moves).result().reason
    'win'
    """
    start_time = time.perf_counter()
    game = crossing_game(board, pieces)
    topo = game.topology
    before = []  # the prefix as (from, to) pairs
    for move in prefix:
        path = game.check(move)
        before.append((path[0], path[-1]))
        game.play(move)
    p = len(before)
    rows = topo.rows_to(game.target_corners[0])
    score = _cell_scores(game, rows, lateral)
    target = game.target_masks[0]
    rng = random.Random(seed)
    mirror = _mirror(topo)
    turn = _turn(topo)
    both = [mirror[turn[c]] for c in range(topo.size)]
    images = (turn, both)
    zobrist, zm, zt, zb = _zobrist(rng, topo.size, [mirror, turn, both])
    cells0 = tuple(sorted(game.cells[0]))
    h0, hm0, ht0, hb0 = (_hash(keys, cells0) for keys in (zobrist, zm, zt, zb))
    cap = round((sum(score[c] for c in game.homes[0]) + sum(score[c] for c in game.targets[0]))
                / 2 - 1000 * slack)
    # a level: list of (cells, hashes (own, mirrored, turned, turned and mirrored), score,
    # unmatched pieces under the turn and under the turn and mirror)
    level = [(cells0, (h0, hm0, ht0, hb0), sum(score[c] for c in cells0),
              _unmatched(cells0, turn), _unmatched(cells0, both))]
    kept_at = {min(h0, hm0)}  # the key of every position kept
    parents: list[list[tuple[int, int, int]]] = []
    # the key of every position met -> its depth, the kept position before it and the move
    every = {min(h0, hm0): 0}
    found: list[tuple[int, int, int]] = []  # (length, new position, the other's entry)
    best = None
    for depth in range(1, max_moves + 1):
        if best is not None and p + depth >= len(best):
            break
        candidates = []
        fresh: dict[int, int] = {}
        occ = bytearray(topo.size)
        weight = round(symmetry * 1000) if depth >= after else 0
        for i, (cells, (h, hm, ht, hb), s, ut, ub) in enumerate(level):
            for c in cells:
                occ[c] = 1
            if compact:
                rs = sorted(rows[c] for c in cells)
                low, low2, high, high2 = rs[0], rs[1], rs[-1], rs[-2]
            for a, b in pair_moves(occ, cells, topo, target):
                nh, nhm = h ^ zobrist[a] ^ zobrist[b], hm ^ zm[a] ^ zm[b]
                key = nh if nh < nhm else nhm
                if key in kept_at or key in fresh:
                    continue
                fresh[key] = len(candidates)
                nut = ut + _unmatched_change(occ, turn, a, b)
                nub = ub + _unmatched_change(occ, both, a, b)
                new_score = s - score[a] + score[b]
                rank = (new_score if new_score > cap else cap) + weight * (
                    nut if nut < nub else nub)
                if compact:
                    ra, rb = rows[a], rows[b]
                    lo = low2 if ra == low else low
                    hi = high2 if ra == high else high
                    rank += compact * 1000 * (max(hi, rb) - min(lo, rb))
                candidates.append((rank, rng.random(), i, a, b, key,
                                   (nh, nhm, ht ^ zt[a] ^ zt[b], hb ^ zb[a] ^ zb[b]),
                                   new_score, nut, nub))
            for c in cells:
                occ[c] = 0
        if not candidates:
            break
        # a new position that is another one (kept or not) turned: join the paths
        for _rank, _r, i, a, b, key, *_tail in candidates:
            if key not in every:
                every[key] = (((depth << 24) | i) << 16) | (a << 8) | b
        for n, (*_head, _key, (_h, _hm, ht, hb), _s, _ut, _ub) in enumerate(candidates):
            there = every.get(ht if ht < hb else hb)
            if there is not None:
                found.append((2 * p + depth + (there >> 40), n, there))
        found.sort()
        for length, n, there in found:
            if best is not None and length >= len(best):
                break
            i, a, b = candidates[n][2:5]
            first = [*before, *_pairs_to(parents, depth - 1, i), (a, b)]
            d2 = there >> 40
            second = [*before, *_pairs_to(parents, d2 - 1, (there >> 16) & 0xFFFFFF),
                      ((there >> 8) & 255, there & 255)] if d2 else before
            moves = _join(board, pieces, first, second, images)
            if moves is not None:
                best = moves
        found = []
        candidates.sort()
        kept = candidates[:width]
        parents.append([(i, a, b) for _rank, _r, i, a, b, *_tail in kept])
        new_level = []
        for _rank, _r, i, a, b, key, hashes, s, ut, ub in kept:
            cells = level[i][0]
            new_level.append((tuple(sorted(b if c == a else c for c in cells)), hashes, s, ut, ub))
            kept_at.add(key)
        level = new_level
        for k, (cells, _hashes, _s, ut, ub) in enumerate(level):
            for unmatched, image in ((ut, turn), (ub, both)):
                if unmatched > bridge or (best is not None
                                          and 2 * (p + depth) + unmatched >= len(best)):
                    continue
                steps = _bridge(cells, image, target, topo)
                if steps is not None:
                    first = [*before, *_pairs_to(parents, depth, k)]
                    moves = _join(board, pieces, [*first, *steps], first, images)
                    if moves is not None:
                        best = moves
        if progress is not None:
            progress(depth, kept[0][0])
        if time_limit is not None and time.perf_counter() - start_time > time_limit:
            break
    if best is None:
        return None
    return Crossing(topo.key, game.pieces, best, time.perf_counter() - start_time, width)


def _bridge(cells: Sequence[int], image: list[int], lock: bytearray,
            topology: Topology) -> list[tuple[int, int]] | None:
    """Moves that take the pieces on ``cells`` to their image, each piece whose image
    cell is empty moving straight onto one of the empty image cells (None if no order
    works)."""
    here = set(cells)
    movers = tuple(c for c in cells if image[c] not in here)
    holes = tuple(image[c] for c in movers)
    occ = bytearray(topology.size)
    for c in cells:
        occ[c] = 1
    failed: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def search(movers: tuple[int, ...], holes: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not movers:
            return []
        if (movers, holes) in failed:
            return None
        for a in movers:
            for b in holes:
                if shortest_path(occ, a, b, topology, lock if lock[a] else None) is None:
                    continue
                occ[a], occ[b] = 0, 1
                rest = search(tuple(c for c in movers if c != a),
                              tuple(c for c in holes if c != b))
                occ[a], occ[b] = 1, 0
                if rest is not None:
                    return [(a, b), *rest]
        failed.add((movers, holes))
        return None

    return search(movers, holes)


def _pairs_to(parents: list[list[tuple[int, int, int]]], depth: int,
              index: int) -> list[tuple[int, int]]:
    """The ``(from, to)`` moves to the kept position ``index`` of level ``depth``."""
    pairs = []
    for d in range(depth, 0, -1):
        index, a, b = parents[d - 1][index]
        pairs.append((a, b))
    pairs.reverse()
    return pairs


def _join(board: str, pieces: int | None, first: list[tuple[int, int]],
          second: list[tuple[int, int]], images: Sequence[list[int]]) -> tuple[str, ...] | None:
    """The crossing ``first``, then ``second`` turned and played backwards, as move texts,
    if the position after ``first`` is the one after ``second`` turned and every move is
    legal (None otherwise)."""
    game = crossing_game(board, pieces)
    here = set(game.cells[0])
    there = set(here)
    for a, b in first:
        here.remove(a)
        here.add(b)
    for a, b in second:
        there.remove(a)
        there.add(b)
    topo = game.topology
    for image in images:
        if {image[c] for c in there} != here:
            continue
        pairs = [*first, *((image[b], image[a]) for a, b in reversed(second))]
        game = crossing_game(board, pieces)
        texts = []
        for a, b in pairs:
            lock = game.target_masks[0]
            path = shortest_path(game.occ, a, b, topo, lock if lock[a] else None)
            if path is None or game.is_over():
                break
            game.push_unchecked(a, b, path)
            texts.append(str(Move(tuple(topo.names[c] for c in path))))
        else:
            if game.result().reason == "win":
                return tuple(texts)
    return None


if __name__ == "__main__":  # pragma: no cover - a developer's command
    import sys

    board = sys.argv[1] if len(sys.argv) > 1 else "star"
    pieces = int(sys.argv[2]) if len(sys.argv) > 2 else None
    width = int(sys.argv[3]) if len(sys.argv) > 3 else 4000
    lateral = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    compact = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    found = solve_crossing(board, pieces, width, lateral, compact,
                           progress=lambda d, b: print(d, b, flush=True))
    print(found and len(found), found)
