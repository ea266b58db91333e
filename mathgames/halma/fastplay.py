"""The fast step-and-jump engine: one kernel over flat integer arrays, compiled by numba.

Random playouts need every legal move of every ply, and every ply needs a
jump-chain search for each piece. :mod:`mathgames.halma.bitboard` does that in
Python integers at a tenth of OpenSpiel's C++ ``chinese_checkers``; this module
writes the same search as a plain loop over flat arrays:

- ``step[c * D + k]``: the neighbour of cell ``c`` in direction ``k`` (or -1);
- ``over[c * D + k]``, ``land[c * D + k]``: the jump from ``c`` in direction
  ``k`` (both -1 where the board ends);
- ``board[c]``: 0 on an empty cell, ``p + 1`` under a piece of player ``p``;
- a jump chain is a depth-first search with an explicit stack and a "seen"
  stamp per cell; the piece's own start is vacated during the search and never
  landed on again, and a piece already in its target camp lands only inside it
  (the goal lock), as in :func:`mathgames.halma.game.pair_moves`;
- random choices come from Marsaglia's xorshift128 on 32-bit words (the same
  numbers in Python and compiled), uniform over the distinct ``(from, to)`` moves
  (a multiply-shift into ``range(n)``: a bias below ``n / 2**32``).

When numba is installed (the optional ``fast`` extra) the kernel is compiled with
``numba.njit(cache=True)`` at its first use (numba and numpy are imported only
then); without it the very same function runs as Python over lists, about 27 times
slower (about the game's own API), and stays the tested reference of the compiled
one. ``tests/halma/test_halma_fastplay.py`` checks that its moves equal
the game's generator and the naive reference in every position of recorded and
random games of every board and player count, in both modes, and that both modes
play the same games. ``bench/halma.py --only 4`` races it with OpenSpiel.

>>> from mathgames.halma.game import DEFAULT_FILL_RULE, Game
>>> game = Game("star", 3)
>>> sorted(FastEngine.of("star", 3).pair_moves(game)) == sorted(game.pair_moves())
True
>>> playout = random_playout("star", 2, turns=200, seed=1)
>>> 0 < playout.plies <= 200
True
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from mathgames.halma.game import DEFAULT_FILL_RULE, Game
from mathgames.halma.topology import Topology, get_topology

__all__ = ["FastEngine", "Playout", "engine_mode", "jit_available", "random_playout"]

_MASK = 0xFFFFFFFF


def _kernel(board, cells, first, counts, players, start_board, start_cells, games, turns,
            step, over, land, dirs, lock, targets, tsize, seen, stack, move_from, move_to,
            rng, out_plies, out_winner, rec_from, rec_to, bound, ply0, start_arrived, arrived,
            finished):
    """The whole engine in one function (numba compiles it; Python runs it unchanged).

    With ``games == 0``: write the legal moves of player ``first`` in the position
    ``board``/``cells`` to ``move_from``/``move_to`` and return how many there are.
    Otherwise play ``games`` uniformly random games of at most ``turns`` plies, each
    from ``start_board``/``start_cells`` with player ``first`` to move; write each one's plies
    and winner (-1: none) to ``out_plies[g]``/``out_winner[g]``, the last game's moves
    to ``rec_from``/``rec_to`` (-1 for a pass), and return the plies played in all.

    ``cells[first_of_p + i]``: the cell of player ``p``'s piece ``i``, with
    ``first_of_p = sum(counts[:p])``; ``lock[p * size + c]`` is 1 on ``p``'s target
    camp, whose cells are ``targets[p * tsize + j]``; ``rng``: four 32-bit words.
    The fill rule (:data:`mathgames.halma.game.FILL_RULES`): ``bound == 0`` is the
    literal one; ``bound > 0`` the bounded one, where another player's piece in a full
    camp counts only when ``finished[q]`` is set for its owner ``q`` or it has stood
    there ``bound`` of ``q``'s turns: it has stood on ``c`` since ply ``arrived[c]``
    (``start_arrived`` at the start, which is ply ``ply0`` of the game).
    """
    size = len(board)
    for c in range(size):
        seen[c] = 0
    stamp = 0
    total = 0
    for g in range(max(games, 1)):
        if games > 0:
            for c in range(size):
                board[c] = start_board[c]
            for i in range(len(cells)):
                cells[i] = start_cells[i]
            for c in range(size):
                arrived[c] = start_arrived[c]
        starter = ((first - ply0) % players + players) % players  # who moved at ply 0
        winner = -1
        plies = turns
        last = turns if games > 0 else 1
        for ply in range(last):
            p = (first + ply) % players
            base = 0
            for q in range(p):
                base += counts[q]
            lbase = p * size
            n = 0
            for i in range(counts[p]):
                s = cells[base + i]
                locked = lock[lbase + s]
                for k in range(dirs):
                    t = step[s * dirs + k]
                    if t >= 0 and board[t] == 0 and (locked == 0 or lock[lbase + t] != 0):
                        move_from[n] = s
                        move_to[n] = t
                        n += 1
                # every landing of a jump chain, depth first over an explicit stack
                stamp += 1
                seen[s] = stamp
                own = board[s]
                board[s] = 0
                stack[0] = s
                top = 1
                while top > 0:
                    top -= 1
                    c = stack[top]
                    for k in range(dirs):
                        o = over[c * dirs + k]
                        if o >= 0 and board[o] != 0:
                            t = land[c * dirs + k]
                            if board[t] == 0 and seen[t] != stamp and (
                                    locked == 0 or lock[lbase + t] != 0):
                                seen[t] = stamp
                                move_from[n] = s
                                move_to[n] = t
                                n += 1
                                stack[top] = t
                                top += 1
                board[s] = own
            if games == 0:
                return n
            if n == 0:  # a pass (the fill rule may still end the game, as in Game)
                rec_from[ply] = -1
                rec_to[ply] = -1
            else:
                # xorshift128 (Marsaglia 2003), then a multiply-shift into range(n)
                x = rng[0]
                t = (x ^ (x << 11)) & _MASK
                rng[0] = rng[1]
                rng[1] = rng[2]
                rng[2] = rng[3]
                w = rng[3]
                w = (w ^ (w >> 19)) ^ (t ^ (t >> 8))
                rng[3] = w
                r = (w * n) >> 32
                a = move_from[r]
                b = move_to[r]
                board[a] = 0
                board[b] = p + 1
                for i in range(counts[p]):
                    if cells[base + i] == a:
                        cells[base + i] = b
                        break
                rec_from[ply] = a
                rec_to[ply] = b
                arrived[b] = ply0 + ply + 1
            # finished: every piece in the camp, or the camp full with at least one of
            # the mover's pieces in it (and, bounded, only blockers' pieces besides)
            done = counts[p] > 0
            for i in range(counts[p]):
                if lock[lbase + cells[base + i]] == 0:
                    done = False
                    break
            if not done:
                full = True
                mine = False
                for j in range(tsize):
                    c = targets[p * tsize + j]
                    v = board[c]
                    if v == 0:
                        full = False
                        break
                    if v == p + 1:
                        mine = True
                    elif bound > 0 and finished[v - 1] == 0:
                        # the owner's turns from ply arrived[c] up to now
                        since = arrived[c]
                        t0 = since + ((v - 1 - starter - since) % players + players) % players
                        now = ply0 + ply + 1
                        if now <= t0 or (now - t0 + players - 1) // players < bound:
                            full = False
                            break
                done = full and mine
            if done:
                winner = p
                plies = ply + 1
                break
        out_plies[g] = plies
        out_winner[g] = winner
        total += plies
    return total


_jit: dict[str, Any] = {}


def _compiled() -> Any:
    """The kernel compiled by numba, or None without numba. numba (and numpy) are imported
    here, at the first use, so that importing this module stays light for game pages."""
    if "kernel" not in _jit:
        try:
            import numba
        except ImportError:  # the optional `fast` extra is absent: the kernel runs as Python
            _jit.update(kernel=None, version=None)
        else:
            _jit.update(kernel=numba.njit(cache=True, nogil=True)(_kernel),
                        version=numba.__version__)
    return _jit["kernel"]


def jit_available() -> bool:
    """True when numba is installed, so that :class:`FastEngine` runs the compiled kernel.

    >>> jit_available() in (True, False)
    True
    """
    return _compiled() is not None


def engine_mode(jit: bool | None = None) -> str:
    """A line saying how the engine runs (for benchmarks' output).

    >>> engine_mode(False).startswith("pure Python")
    True
    """
    if jit is None:
        jit = jit_available()
    if jit:
        return f"compiled by numba {_jit['version']}"
    return ("pure Python (numba not used)" if jit_available()
            else "pure Python (numba is not installed)")


class Playout(NamedTuple):
    """The end of a random game: how many plies, and who finished (or None)."""

    plies: int
    winner: int | None


def _seed_words(seed: int) -> list[int]:
    """Four non-zero 32-bit words for xorshift128 from any integer (splitmix64)."""
    words = []
    z = seed & 0xFFFFFFFFFFFFFFFF
    for _ in range(2):
        z = (z + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = z
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
        words += [x & _MASK, x >> 32]
    return [w or 1 for w in words]


class FastEngine:
    """The kernel's tables for one board and player count (build with :meth:`of`).

    ``jit``: run the compiled kernel (True), the Python one (False), or the compiled
    one when numba is installed (None). ``fill_rule``: ``"bounded"`` or ``"literal"``
    (the swap rule's moves are not the kernel's); it plays only games of that rule.

    >>> engine = FastEngine.of("halma", 4)
    >>> engine.jit == jit_available(), engine.pieces
    (True, 13)
    """

    _cache: ClassVar[dict[tuple[str, int, bool, str], FastEngine]] = {}

    def __init__(self, topology: Topology, players: int, jit: bool,
                 fill_rule: str = DEFAULT_FILL_RULE) -> None:
        if jit and not jit_available():
            raise RuntimeError("the compiled engine needs numba (pip install mathgames[fast])")
        if fill_rule not in ("bounded", "literal"):
            raise ValueError(f"the fast engine plays the bounded and literal fill rules, "
                             f"not {fill_rule!r}")
        self.topology = topo = topology
        self.players = players
        self.jit = jit
        self.fill_rule = fill_rule
        start = Game(topo, players, fill_rule=fill_rule)
        self.bound = start.fill_bound if fill_rule == "bounded" else 0
        self.pieces = start.pieces
        self.dirs = dirs = len(topo.directions)
        size = topo.size
        step = [-1] * (size * dirs)
        over = [-1] * (size * dirs)
        land = [-1] * (size * dirs)
        cell_of = {xy: c for c, xy in enumerate(topo.coords)}
        for c, (x, y) in enumerate(topo.coords):
            for k, (dx, dy) in enumerate(topo.directions):
                n = topo.step_table[c][k]
                step[c * dirs + k] = n
                far = cell_of.get((x + 2 * dx, y + 2 * dy), -1)
                if n >= 0 and far >= 0:
                    over[c * dirs + k], land[c * dirs + k] = n, far
        for c in range(size):  # the tables must be the topology's own
            mine = {(over[c * dirs + k], land[c * dirs + k]) for k in range(dirs)
                    if over[c * dirs + k] >= 0}
            if mine != set(topo.jumps[c]):
                raise ValueError(f"{topo.key}: cell {c}'s jumps are not the lattice's")
        self.targets = start.targets
        self.tsize = tsize = len(start.targets[0])
        lock = [0] * (players * size)
        targets = [0] * (players * tsize)
        for p, camp in enumerate(start.targets):
            for j, c in enumerate(sorted(camp)):
                lock[p * size + c] = 1
                targets[p * tsize + j] = c
        array = self._array
        self._tables: dict[str, Any] = {
            "step": array(step, "int32"), "over": array(over, "int32"),
            "land": array(land, "int32"), "lock": array(lock, "int8"),
            "targets": array(targets, "int32"),
            "counts": array([len(c) for c in start.cells], "int32"),
            "start_board": array(start.occ, "int8"),
            "start_cells": array([c for cells in start.cells for c in cells], "int32"),
        }
        self._run = _compiled() if jit else _kernel

    @classmethod
    def of(cls, board: Topology | str, players: int = 2, jit: bool | None = None,
           fill_rule: str = DEFAULT_FILL_RULE) -> FastEngine:
        """The (cached) engine of a board, player count and fill rule.

        >>> FastEngine.of("star", 6).pieces, FastEngine.of("star", 6).bound
        (10, 30)
        """
        topo = get_topology(board)
        jit = jit_available() if jit is None else jit
        key = (topo.key, players, jit, fill_rule)
        if key not in cls._cache:
            cls._cache[key] = cls(topo, players, jit, fill_rule)
        return cls._cache[key]

    def _array(self, values: Any, dtype: str) -> Any:
        """A numpy array of ``dtype`` for the compiled kernel, else a list (Python lists
        index several times faster than numpy arrays)."""
        if not self.jit:
            return list(values)
        import numpy  # installed with numba

        return numpy.array(values, dtype)

    def _position(self, game: Game | None) -> tuple[Any, Any, Any, int, int, Any, Any]:
        """The kernel's ``board``, ``cells``, ``counts``, player to move, ply, the ply
        since which each cell's piece has stood there and who has finished, of a game
        (the start when None)."""
        if game is None:
            t = self._tables
            return (t["start_board"], t["start_cells"], t["counts"], 0, 0,
                    self._array([0] * self.topology.size, "int64"),
                    self._array([0] * self.players, "int8"))
        if (game.topology is not self.topology or game.players != self.players
                or game.targets != self.targets or game.fill_rule != self.fill_rule):
            raise ValueError(f"this engine plays {self.topology.key} with {self.players} "
                             f"players and the {self.fill_rule} fill rule, not "
                             f"{game.topology.key} with {game.players} and {game.fill_rule}")
        arrivals = game._arrivals()
        return (self._array(game.occ, "int8"),
                self._array([c for cells in game.cells for c in cells], "int32"),
                self._array([len(c) for c in game.cells], "int32"), game.to_move, game.ply,
                self._array([arrivals.get(c, 0) for c in range(self.topology.size)], "int64"),
                self._array([q in game.finished for q in range(self.players)], "int8"))

    def _call(self, game: Game | None, games: int, turns: int,
              seed: int) -> tuple[int, Any, Any, Any, Any, Any]:
        """Run the kernel; its total, plies, winners, records and the ``(from, to)``
        buffers. Every call has its own buffers, so that threads may share an engine."""
        start_board, start_cells, counts, first, ply0, start_arrived, finished = \
            self._position(game)
        t, size = self._tables, self.topology.size
        seen = self._array([0] * size, "int64")
        stack = self._array([0] * (size + 1), "int32")
        most = sum(counts) * size  # fewer than size landings for each piece
        move_from = self._array([0] * most, "int32")
        move_to = self._array([0] * most, "int32")
        out_plies = self._array([0] * max(games, 1), "int64")
        out_winner = self._array([0] * max(games, 1), "int64")
        rec_from = self._array([0] * max(turns, 1), "int32")
        rec_to = self._array([0] * max(turns, 1), "int32")
        rng = self._array(_seed_words(seed), "int64")
        result = self._run(self._array(start_board, "int8"),
                           self._array(start_cells, "int32"), first, counts, self.players,
                           start_board, start_cells, games, turns, t["step"], t["over"],
                           t["land"], self.dirs, t["lock"], t["targets"], self.tsize,
                           seen, stack, move_from, move_to, rng, out_plies, out_winner,
                           rec_from, rec_to, self.bound, ply0, start_arrived,
                           self._array(start_arrived, "int64"), finished)
        return int(result), out_plies, out_winner, rec_from, rec_to, (move_from, move_to)

    def pair_moves(self, game: Game) -> list[tuple[int, int]]:
        """The legal ``(from, to)`` pairs of the player to move in ``game`` (each once).

        >>> game = Game("halma", 2)
        >>> sorted(FastEngine.of("halma", 2).pair_moves(game)) == sorted(game.pair_moves())
        True
        """
        n, *_rest, (move_from, move_to) = self._call(game, 0, 1, 0)
        return [(int(move_from[i]), int(move_to[i])) for i in range(n)]

    def playouts(self, games: int, turns: int = 200, seed: int = 0,
                 game: Game | None = None) -> list[Playout]:
        """``games`` uniformly random games of at most ``turns`` plies, in one call of
        the kernel, each from ``game``'s position (the start when None).

        >>> engine = FastEngine.of("star", 2)
        >>> engine.playouts(3, seed=5) == engine.playouts(3, seed=5)
        True
        """
        _total, plies, winners, *_rest = self._call(game, games, turns, seed)
        return [Playout(int(n), None if w < 0 else int(w))
                for n, w in zip(plies, winners, strict=True)]

    def plies(self, games: int, turns: int = 200, seed: int = 0) -> int:
        """The plies of ``games`` random games from the start in all (the bench's loop).

        >>> FastEngine.of("halma", 2).plies(2, turns=30)
        60
        """
        return self._call(None, games, turns, seed)[0]

    def playout(self, turns: int = 200, seed: int = 0,
                record: list[tuple[int, int] | None] | None = None,
                game: Game | None = None) -> Playout:
        """One random game from ``game``'s position (the start when None); ``record``,
        if given, receives each ply's ``(from, to)`` cells (None for a pass)."""
        _total, plies, winners, rec_from, rec_to, _moves = self._call(game, 1, turns, seed)
        if record is not None:
            for ply in range(int(plies[0])):
                a, b = int(rec_from[ply]), int(rec_to[ply])
                record.append(None if a < 0 else (a, b))
        return Playout(int(plies[0]), None if winners[0] < 0 else int(winners[0]))


def random_playout(board: str, players: int = 2, turns: int = 200, seed: int = 0,
                   record: list[tuple[int, int] | None] | None = None,
                   jit: bool | None = None) -> Playout:
    """A game of uniformly random legal moves from the start, at most ``turns`` plies.

    Every turn the player to move picks one of its distinct legal ``(from, to)``
    moves with equal chances (it passes when it has none); the game stops when a
    player has finished (all its pieces home, or its target camp filled under the
    default, bounded fill rule: :meth:`mathgames.halma.game.Game.camp_filled`) or
    after ``turns`` plies.

    >>> random_playout("halma", 2, turns=50, seed=3).plies
    50
    """
    return FastEngine.of(board, players, jit).playout(turns, seed, record)
