"""A fast step-and-jump engine: the board as bits of one Python integer.

Each cell of a board gets one bit of a padded rectangle laid over its integer
lattice coordinates (``index = (y + 2) * width + x``, with two spare columns
on the right of every row). Moving one cell in a direction ``(dx, dy)`` is then
a shift by ``dy * width + dx`` bits, and a move's landing never wraps into a
real cell: a shift that leaves a row lands in the spare columns, which are not
part of :attr:`BitBoard.valid`. With ``occ`` the bits of every piece and
``free = valid & ~occ``:

- steps of the piece on ``s``: ``neighbours[s] & free`` (a precomputed mask);
- single jumps from the set of cells ``F`` in direction ``d``: shift ``F`` by
  ``d``, keep the occupied cells, shift by ``d`` again, keep the free cells;
  a chain of jumps is a breadth-first flood of those sets, all directions at
  once, until no new landing appears (the piece's own start cell is vacated
  and never landed on again, as in :func:`mathgames.halma.game.pair_moves`);
- the goal lock: a piece already in its target camp lands only in that camp.

The moves are exactly those of :func:`mathgames.halma.game.pair_moves`
(``tests/halma/test_halma_bitboard.py`` checks every recorded position against
it and against the naive reference in ``bench/halma_reference.py``).

:func:`random_playout` plays uniformly random games: the steps of all the
mover's pieces come from one shift per direction, and a chain search (over
the jump table on a byte board, cheaper than the flood when chains are short)
runs only for a piece that has a first jump. Measured honestly
(``bench/halma.py``, section 4): about as fast as the byte-board
:func:`~mathgames.halma.game.pair_moves` in a bare loop (within 5 %), both
about 1.4 times the game's own checked API, and about a ninth of OpenSpiel's
C++ ``chinese_checkers`` through its Python binding: in Python, the shifts of
a 300-bit integer cost about as much as the byte lookups they replace.

>>> from mathgames.halma.game import Game, jump_destinations
>>> game = Game("star", 2)
>>> bb = BitBoard.of(game.topology)
>>> sorted(bb.pair_moves_of_game(game)) == sorted(game.pair_moves())
True
>>> playout = random_playout("star", 2, turns=200, seed=1)
>>> 0 < playout.plies <= 200
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import ClassVar, NamedTuple

from mathgames.halma.game import DEFAULT_FILL_RULE, Game, jump_destinations
from mathgames.halma.topology import Topology, get_topology

__all__ = ["BitBoard", "Playout", "random_playout"]


class BitBoard:
    """The bit layout of one board and its precomputed masks (build with :meth:`of`)."""

    _cache: ClassVar[dict[str, BitBoard]] = {}

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        xs = [x for x, _y in topology.coords]
        ys = [y for _x, y in topology.coords]
        x0, y0 = min(xs), min(ys)
        self.width = width = max(xs) - x0 + 3
        index = [(y - y0 + 2) * width + (x - x0) for x, y in topology.coords]
        #: bit of each cell, and the cell of each bit index
        self.bit: tuple[int, ...] = tuple(1 << i for i in index)
        cell_at = [-1] * (max(index) + 1)
        for c, i in enumerate(index):
            cell_at[i] = c
        self.cell_at: tuple[int, ...] = tuple(cell_at)
        self.valid = sum(self.bit)
        self.neighbours: tuple[int, ...] = tuple(
            sum(self.bit[n] for n in topology.neighbours[c]) for c in range(topology.size))
        shifts = set()
        for c in range(topology.size):
            for over, land in topology.jumps[c]:
                step = index[over] - index[c]
                if index[land] - index[over] != step:
                    raise ValueError(f"{topology.key}: the jump {c}-{land} is not straight")
                shifts.add(step)
        self.up = tuple(sorted(s for s in shifts if s > 0))
        self.down = tuple(sorted(-s for s in shifts if s < 0))
        # every cell's jumps must be exactly the straight ones the shifts produce
        for c in range(topology.size):
            mine = {index[land] for _over, land in topology.jumps[c]}
            straight = {index[c] + 2 * s for s in shifts
                        if 0 <= index[c] + 2 * s < len(cell_at) and cell_at[index[c] + 2 * s] >= 0
                        and 0 <= index[c] + s < len(cell_at) and cell_at[index[c] + s] >= 0}
            if mine != straight:
                raise ValueError(f"{topology.key}: cell {c}'s jumps are not the lattice's")

    @classmethod
    def of(cls, topology: Topology | str) -> BitBoard:
        """The (cached) bit layout of a board.

        >>> BitBoard.of("halma").valid.bit_count(), BitBoard.of("star").valid.bit_count()
        (256, 121)
        """
        topo = get_topology(topology)
        if topo.key not in cls._cache:
            cls._cache[topo.key] = cls(topo)
        return cls._cache[topo.key]

    def mask(self, cells: Iterable[int]) -> int:
        """The bits of some cells.

        >>> bb = BitBoard.of("star"); bb.mask([0, 1]) == bb.bit[0] | bb.bit[1]
        True
        """
        bit = self.bit
        return sum(bit[c] for c in set(cells))

    def cells(self, bits: int) -> list[int]:
        """The cells of a mask, in increasing bit order."""
        out, cell_at = [], self.cell_at
        while bits:
            low = bits & -bits
            out.append(cell_at[low.bit_length() - 1])
            bits ^= low
        return out

    def jumps(self, occ: int, start: int, allowed: int | None = None) -> int:
        """The landing cells of every jump chain of the piece on ``start`` (a mask).

        ``occ``: the bits of every piece (``start`` included); ``allowed``: where
        a landing may be (the goal lock), every valid cell if None.
        """
        b = self.bit[start]
        others = occ & ~b
        free = self.valid & ~occ
        if allowed is not None:
            free &= allowed
        reach = frontier = b
        up, down = self.up, self.down
        while frontier:
            new = 0
            for k in up:
                new |= ((frontier << k) & others) << k
            for k in down:
                new |= ((frontier >> k) & others) >> k
            frontier = new & free & ~reach
            reach |= frontier
        return reach ^ b

    def chains(self, board: bytearray, start: int, lock: bytearray | None) -> list[int]:
        """The landings of :meth:`jumps` as a list of cells, by a breadth-first search
        over the jump table on a byte board (``board[c]`` non-zero where a piece
        stands; ``lock[c]`` set where a locked piece may land): cheaper than the
        whole-board flood when the chains are short, as they mostly are."""
        return list(jump_destinations(board, start, self.topology.jumps, lock))

    def destinations(self, occ: int, start: int, target: int) -> int:
        """Every cell the piece on ``start`` may move to (steps and jump chains), as a mask;
        ``target``: the mover's target camp (a piece inside it stays inside)."""
        b = self.bit[start]
        allowed = target if target & b else self.valid
        free = self.valid & ~occ & allowed
        return (self.neighbours[start] & free) | self.jumps(occ, start, allowed)

    def jumpers(self, occ: int, pieces: int) -> int:
        """The pieces (a mask within ``pieces``) with at least one single jump.

        One pass over the directions for all pieces at once: a piece without a
        first jump has no chain, so only the others need a flood.
        """
        free = self.valid & ~occ
        found = 0
        for k in self.up:
            found |= ((((pieces << k) & occ) << k) & free) >> (2 * k)
        for k in self.down:
            found |= ((((pieces >> k) & occ) >> k) & free) << (2 * k)
        return found

    def destinations_all(self, occ: int, pieces: int, target: int) -> list[tuple[int, int]]:
        """``(start, destinations mask)`` of every piece in the mask ``pieces`` that can move."""
        cell_at, valid, neighbours = self.cell_at, self.valid, self.neighbours
        free = valid & ~occ
        jumpers = self.jumpers(occ, pieces)
        out = []
        m = pieces
        while m:
            low = m & -m
            m ^= low
            s = cell_at[low.bit_length() - 1]
            if target & low:
                dest = neighbours[s] & free & target
                if jumpers & low:
                    dest |= self.jumps(occ, s, target)
            else:
                dest = neighbours[s] & free
                if jumpers & low:
                    dest |= self.jumps(occ, s)
            if dest:
                out.append((s, dest))
        return out

    def pair_moves(self, occ: int, cells: Iterable[int], target: int) -> list[tuple[int, int]]:
        """All legal ``(from, to)`` pairs of the pieces on ``cells`` (each once)."""
        out = []
        cell_at = self.cell_at
        for s, dest in self.destinations_all(occ, self.mask(cells), target):
            while dest:
                low = dest & -dest
                out.append((s, cell_at[low.bit_length() - 1]))
                dest ^= low
        return out

    def pair_moves_of_game(self, game: Game) -> list[tuple[int, int]]:
        """The legal ``(from, to)`` pairs of the player to move in ``game``."""
        occ = self.mask(c for cells in game.cells for c in cells)
        target = self.mask(game.targets[game.to_move])
        return self.pair_moves(occ, game.cells[game.to_move], target)


class Playout(NamedTuple):
    """The end of a random game: how many plies, and who finished (or None)."""

    plies: int
    winner: int | None


def random_playout(board: str, players: int = 2, turns: int = 200, seed: int | None = None,
                   rng: random.Random | None = None,
                   record: list[tuple[int, int] | None] | None = None,
                   fill_rule: str = DEFAULT_FILL_RULE) -> Playout:
    """A game of uniformly random legal moves from the start, at most ``turns`` plies.

    Every turn the player to move picks one of its legal ``(from, to)`` moves with
    equal chances (it passes when it has none); the game stops when a player has
    finished (all its pieces home, or its target camp filled under ``fill_rule``,
    ``"bounded"`` or ``"literal"``: :meth:`mathgames.halma.game.Game.camp_filled`) or
    after ``turns`` plies. ``record``, if given, receives each ply's ``(from, to)``
    cells (None for a pass).

    >>> random_playout("halma", 2, turns=50, seed=3).plies
    50
    """
    rng = rng or random.Random(seed)
    if fill_rule not in ("bounded", "literal"):
        raise ValueError(f"random_playout plays the bounded and literal fill rules, "
                         f"not {fill_rule!r}")
    game = Game(board, players, fill_rule=fill_rule)
    bound = game.fill_bound if fill_rule == "bounded" else 0
    bb = BitBoard.of(game.topology)
    bit, cell_at, valid = bb.bit, bb.cell_at, bb.valid
    chains, table = bb.chains, game.topology.jumps
    locks = game.target_masks
    pieces = [bb.mask(cells) for cells in game.cells]
    targets = [bb.mask(t) for t in game.targets]
    occ = sum(pieces)
    cells = bytearray(game.occ)  # the same position, one byte a cell (for the chains)
    own = [list(c) for c in game.cells]
    arrived = [0] * game.topology.size  # the ply since which a cell's piece stands there
    shifts = [(k, True) for k in bb.up] + [(k, False) for k in bb.down]
    for ply in range(turns):
        p = ply % players
        mine = pieces[p]
        target = targets[p]
        free = valid & ~occ
        locked = mine & target
        roaming = mine ^ locked
        # steps of every piece at once: one shift per direction (a locked piece stays home)
        steps = []
        total = 0
        for k, up in shifts:
            if up:
                landing = ((roaming << k) & free) | ((locked << k) & free & target)
            else:
                landing = ((roaming >> k) & free) | ((locked >> k) & free & target)
            if landing:
                n = landing.bit_count()
                total += n
                steps.append((k, up, landing, n))
        step_total = total
        # jump chains: one search for each piece with a first jump
        jumps = []
        lock = locks[p]
        for s in own[p]:
            # most pieces have no first jump: look before searching
            for over, land in table[s]:
                if cells[over] and not cells[land]:
                    dest = chains(cells, s, lock if lock[s] else None)
                    if dest:
                        total += len(dest)
                        jumps.append((s, dest))
                    break
        if not total:  # a pass (the fill rule may still end the game, as in Game)
            if record is not None:
                record.append(None)
            if _filled(cells, arrived, occ, target, game.targets[p], p, ply, players, bound):
                return Playout(ply + 1, p)
            continue
        r = rng.randrange(total)
        if r < step_total:
            for k, up, landing, n in steps:  # noqa: B007 (the loop finds the direction)
                if r < n:
                    break
                r -= n
            for _ in range(r):
                landing &= landing - 1
            to = landing & -landing
            frm = to >> k if up else to << k
            start, end = cell_at[frm.bit_length() - 1], cell_at[to.bit_length() - 1]
        else:
            r -= step_total
            for start, dest in jumps:  # noqa: B007 (the loop finds the piece)
                if r < len(dest):
                    break
                r -= len(dest)
            end = dest[r]
            frm, to = bit[start], bit[end]
        if record is not None:
            record.append((start, end))
        move = frm | to
        occ ^= move
        cells[start] = 0
        cells[end] = p + 1
        mine_cells = own[p]
        mine_cells[mine_cells.index(start)] = end
        arrived[end] = ply + 1
        pieces[p] = mine ^ move
        if pieces[p] & target == pieces[p] or _filled(cells, arrived, occ, target,
                                                      game.targets[p], p, ply, players, bound):
            return Playout(ply + 1, p)
    return Playout(turns, None)


def _filled(cells: bytearray, arrived: list[int], occ: int, target: int,
            camp: tuple[int, ...], p: int, ply: int, players: int, bound: int) -> bool:
    """The fill rule after ply ``ply`` (player ``p``'s turn) of a game from the start:
    ``p``'s target camp full, with one of ``p``'s pieces, and (``bound > 0``) every other
    player's piece in it one that has stood there ``bound`` of its owner's turns."""
    if occ & target != target or not any(cells[c] == p + 1 for c in camp):
        return False
    return bound == 0 or all(
        cells[c] == p + 1 or len(range(arrived[c] + (cells[c] - 1 - arrived[c]) % players,
                                       ply + 1, players)) >= bound
        for c in camp)


def same_moves(game: Game) -> bool:
    """True when the engine and :meth:`Game.pair_moves` find the same moves in ``game``.

    >>> same_moves(Game("halma", 4))
    True
    """
    bb = BitBoard.of(game.topology)
    return sorted(bb.pair_moves_of_game(game)) == sorted(game.pair_moves())
