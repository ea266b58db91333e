"""The rules of Halma and Chinese checkers: one engine over two boards.

A :class:`Game` holds a position (who stands where, who moves), the move
history (for undo) and the end-of-game state. Players are numbered ``0 .. n-1``
in turn order (clockwise around the board); player 0 starts.

A move is a step to a neighbouring empty cell, or a chain of jumps, each over
one neighbouring piece (anyone's) onto the empty cell straight beyond. A
:class:`Move` carries its whole path and has a text form: ``a1-b2`` (a step),
``a1-c3-e5`` (two jumps).

>>> game = Game("star", players=2)
>>> len(game.legal_moves())
14
>>> game.play("d4-i5")
Move.parse('d4-i5')
>>> game.play("a14-b14")
Traceback (most recent call last):
...
mathgames.core.errors.IllegalMoveError: a14-b14: b14 is taken
>>> game.undo()
Move.parse('d4-i5')
>>> game.ply, game.to_move
(0, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import NamedTuple

from mathgames.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidMoveError,
    SetupError,
    quoted,
)
from mathgames.halma.topology import BOARDS, Topology, get_topology

__all__ = ["DEFAULT_FILL_RULE", "FILL_RULES", "PASS", "TURNS_PER_PIECE", "Game", "Move",
           "Result", "jump_destinations", "pair_moves"]

#: How a target camp that holds other players' pieces can still be won (the rule sheet's
#: fill rule, ``../shared/rules/halma.md``), by :class:`Game`'s ``fill_rule``:
#:
#: - ``"bounded"`` (the default): the camp full, with at least one of your pieces, wins only
#:   when every other player's piece in it is a real blocker: its owner has finished, or
#:   has had at least :data:`TURNS_PER_PIECE` turns for each piece (30 turns with 10
#:   pieces) to leave. The bound follows the "empty your camp by move 30" rule of Halma on
#:   8x8 boards with 10 pieces (50 on 10x10 with 15: BrainKing's and Setup Group's rules),
#:   about 3 turns a piece; before it, pieces that have simply not left yet never end a game.
#: - ``"literal"``: the rule sheet read literally, David Parlett's anti-spoiling rule: the
#:   camp full with at least one of your pieces wins at once, whoever fills the rest.
#: - ``"swap"``: no fill rule; instead, as in Masters Games' Chinese checkers rules, a step
#:   from outside your target camp onto another player's piece inside it swaps the two
#:   pieces. You win only with all your pieces home.
FILL_RULES = ("bounded", "literal", "swap")
DEFAULT_FILL_RULE = "bounded"
#: The turns a player gets for each of its pieces before its pieces in another player's
#: target camp count as blocking it (the ``"bounded"`` fill rule).
TURNS_PER_PIECE = 3


# -- the hot loops: plain functions over integer tables ---------------------------------------

def jump_destinations(occ: bytearray | list[int], start: int,
                      jumps: tuple[tuple[tuple[int, int], ...], ...],
                      lock: bytearray | None = None) -> dict[int, int]:
    """Every cell a piece on ``start`` reaches by a chain of jumps: ``{landing: previous}``.

    ``occ[c]`` is non-zero where a piece stands. The piece's own start cell is
    vacated during the chain (nothing to jump over) and never landed on again.
    With ``lock`` (goal lock), every landing must have ``lock[landing]`` set.
    Breadth-first, so following ``previous`` back gives a shortest jump path.

    >>> game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4"]})
    >>> names = game.topology.names
    >>> found = jump_destinations(game.occ, game.topology.index("a1"), game.topology.jumps)
    >>> {names[landing]: names[previous] for landing, previous in found.items()}
    {'c3': 'a1', 'e5': 'c3'}
    """
    parent = {start: -1}
    frontier = [start]
    own = occ[start]
    occ[start] = 0
    while frontier:
        nxt = []
        for c in frontier:
            for over, land in jumps[c]:
                if occ[over] and not occ[land] and land not in parent and (
                        lock is None or lock[land]):
                    parent[land] = c
                    nxt.append(land)
        frontier = nxt
    occ[start] = own
    del parent[start]
    return parent


def pair_moves(occ: bytearray, cells: Iterable[int], topology: Topology,
               target: bytearray) -> list[tuple[int, int]]:
    """All legal ``(from, to)`` pairs for the pieces on ``cells`` (each pair once).

    ``target[c]`` is set on the cells of the moving player's target camp (goal lock).

    >>> game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4"]})
    >>> topology = game.topology
    >>> pairs = pair_moves(game.occ, [topology.index("a1")], topology, bytearray(topology.size))
    >>> sorted(topology.names[end] for _start, end in pairs)
    ['a2', 'b1', 'c3', 'e5']
    """
    jumps = topology.jumps
    steps = _move_tables(topology).step_pairs
    out = []
    append = out.append
    for s in cells:
        locked = target[s]
        for n, pair in steps[s]:
            if not occ[n] and (not locked or target[n]):
                append(pair)
        # inline breadth-first search over jump landings
        seen = {s}
        frontier = [s]
        own = occ[s]
        occ[s] = 0
        while frontier:
            nxt = []
            for c in frontier:
                for over, land in jumps[c]:
                    if occ[over] and not occ[land] and land not in seen and (
                            not locked or target[land]):
                        seen.add(land)
                        nxt.append(land)
                        append((s, land))
            frontier = nxt
        occ[s] = own
    return out


def shortest_path(occ: bytearray, start: int, end: int, topology: Topology,
                  lock: bytearray | None = None) -> tuple[int, ...] | None:
    """A shortest legal path (step or jump chain) from ``start`` to ``end``, or None."""
    if end in topology.neighbours[start]:
        if occ[end] or (lock is not None and not lock[end]):
            return None
        return (start, end)
    parent = jump_destinations(occ, start, topology.jumps, lock)
    if end not in parent:
        return None
    path = [end]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return tuple(reversed(path))


# -- value types ------------------------------------------------------------------------------

class Move(NamedTuple):
    """A move: the cells the piece visits, by name. ``Move(())`` is a pass.

    An immutable value (a named tuple with the one field ``path``).

    >>> m = Move.parse("a1-c3-e5")
    >>> m.path, m.start, m.end, str(m)
    (('a1', 'c3', 'e5'), 'a1', 'e5', 'a1-c3-e5')
    >>> Move.parse(str(m)) == m
    True
    >>> Move.parse("a1")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: 'a1': a move names at least two cells, like a1-b2
    """

    path: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``a1-b2`` or ``a1-c3-e5`` (or ``pass``); syntax only, no board needed."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"{quoted(text)} is not a move text")
        clean = text.strip().lower()
        if clean == "pass":
            return PASS
        parts = tuple(p.strip() for p in clean.replace("–", "-").split("-"))
        if len(parts) < 2:
            raise InvalidMoveError(f"{quoted(text)}: a move names at least two cells, like a1-b2")
        for p in parts:
            if not (2 <= len(p) <= 3 and p[0].isalpha() and p[1:].isdigit()):
                raise InvalidMoveError(f"{quoted(text)}: {quoted(p)} is not a cell name like c3")
        return cls(parts)

    @property
    def start(self) -> str:
        return self.path[0] if self.path else ""

    @property
    def end(self) -> str:
        return self.path[-1] if self.path else ""

    @property
    def is_pass(self) -> bool:
        return not self.path

    def __str__(self) -> str:
        return "-".join(self.path) if self.path else "pass"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


PASS = Move(())


@dataclass(frozen=True)
class Result:
    """How a game ended (or that it has not).

    ``reason`` is a language-neutral code: ``"playing"``, ``"win"``, ``"shared"``
    (several players finished in the same round), ``"move_limit"`` (a draw) or
    ``"blocked"`` (a draw: every player had to pass in the same round).
    ``placings[p]`` is player ``p``'s place (1 = best; equal places share):
    finishers first, then the others by pieces in their target, then by rows to go.
    """

    over: bool
    reason: str
    winners: tuple[int, ...] = ()
    placings: tuple[int, ...] = field(default=())


# -- the game ---------------------------------------------------------------------------------

class Game:
    """A game of Halma (``board="halma"``) or Chinese checkers (``board="star"``).

    ``players``: Halma 2, 3 or 4; star 2, 3, 4 or 6; 1 is the solitaire crossing.
    ``pieces``: only for the Halma solitaire (19 or 13). ``move_limit``: the
    game is a draw after that many moves in all (None: no limit). ``fill_rule``:
    how a camp that holds other players' pieces is won, one of :data:`FILL_RULES`
    (``fill_bound`` is then the turns a blocker gets, :data:`TURNS_PER_PIECE` a piece).

    >>> g = Game("halma", players=4)
    >>> g.corners, g.pieces, g.target_corners
    (('SW', 'NW', 'NE', 'SE'), 13, ('NE', 'SE', 'SW', 'NW'))
    >>> g.fill_rule, g.fill_bound, Game("star", 6, fill_rule="literal").fill_bound
    ('bounded', 39, 30)
    """

    def __init__(self, board: str | Topology = "halma", players: int = 2,
                 move_limit: int | None = None, pieces: int | None = None,
                 fill_rule: str = DEFAULT_FILL_RULE) -> None:
        if not (isinstance(board, Topology) or (isinstance(board, str) and board in BOARDS)):
            raise SetupError(f"unknown board {quoted(board)}; choose 'halma' or 'star'")
        self.topology = topo = get_topology(board)
        if not _whole(players) or players not in topo.setups:
            choices = ", ".join(str(n) for n in topo.setups if n > 1)
            raise SetupError(f"{topo.title} is played by {choices} players, not "
                             f"{quoted(players)}")
        corners, default_pieces = topo.setups[players]
        if pieces is None:
            pieces = default_pieces
        if not _whole(pieces) or (pieces != default_pieces and not (
                players == 1 and pieces in topo.camp_sizes())):
            raise SetupError(f"{players} players on the {topo.title} board have "
                             f"{default_pieces} pieces each, not {quoted(pieces)}")
        if move_limit is not None and (not _whole(move_limit) or move_limit < 1):
            raise SetupError(f"the move limit must be a positive whole number, not "
                             f"{quoted(move_limit)}")
        if not isinstance(fill_rule, str) or fill_rule not in FILL_RULES:
            raise SetupError(f"unknown fill rule {quoted(fill_rule)}; choose one of "
                             f"{', '.join(FILL_RULES)}")
        self.fill_rule = fill_rule
        self.fill_bound = TURNS_PER_PIECE * pieces
        self.players = players
        self.pieces = pieces
        self.move_limit = move_limit
        self.corners: tuple[str, ...] = corners
        self.target_corners = tuple(topo.opposite(c) for c in corners)
        self.homes = tuple(topo.camp(c, pieces) for c in corners)
        self.targets = tuple(topo.camp(c, pieces) for c in self.target_corners)
        self.target_masks = tuple(_mask(topo.size, t) for t in self.targets)
        self.rows = tuple(topo.rows_to(c) for c in self.target_corners)
        self.reset()

    # -- state ------------------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the starting position."""
        topo = self.topology
        self.occ = bytearray(topo.size)  # 0 empty, p + 1 for player p's piece
        self.cells: list[list[int]] = []
        for p, home in enumerate(self.homes):
            self.cells.append(sorted(home))
            for c in home:
                self.occ[c] = p + 1
        self.to_move = 0
        self.ply = 0
        self.finished: dict[int, int] = {}  # player -> ply of the move that finished them
        self.history: list[tuple[int, tuple[int, ...], bool]] = []
        self._over = False

    @classmethod
    def custom(cls, board: str | Topology, players: int, placement: dict[int, list[str]],
               to_move: int = 0, move_limit: int | None = None,
               pieces: int | None = None, fill_rule: str = DEFAULT_FILL_RULE) -> Game:
        """A hand-built position (for puzzles, lessons and tests): any number of
        pieces per player, at most a camp's worth. Camps are as in the normal game.

        >>> g = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4"]})
        >>> [str(m) for m in g.legal_moves()]
        ['a1-b1', 'a1-a2', 'a1-c3', 'a1-c3-e5']
        """
        game = cls(board, players, move_limit, pieces, fill_rule)
        topo = game.topology
        occ = bytearray(topo.size)
        cells: list[list[int]] = [[] for _ in range(players)]
        if not isinstance(placement, dict):
            raise SetupError("the placement must map each player to a list of cell names")
        for p, names in placement.items():
            if not _whole(p) or p not in range(players):
                raise SetupError(f"there is no player {quoted(p)} in a {players}-player game")
            if not isinstance(names, (list, tuple)):
                raise SetupError(f"player {p}: give a list of cell names")
            if len(names) > game.pieces:
                raise SetupError(f"player {p} can have at most {game.pieces} pieces")
            for name in names:
                try:
                    c = topo.index(name) if isinstance(name, str) else -1
                except InvalidMoveError:
                    c = -1
                if c < 0:
                    raise SetupError(f"player {p}: {quoted(name)} is not a cell of the "
                                     f"{topo.title} board")
                if occ[c]:
                    raise SetupError(f"two pieces on {topo.names[c]}")
                occ[c] = p + 1
                cells[p].append(c)
        if not _whole(to_move) or to_move not in range(players):
            raise SetupError(f"there is no player {quoted(to_move)} to move")
        game.occ, game.cells, game.to_move = occ, cells, to_move
        return game

    def copy(self) -> Game:
        """An independent copy (history included)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.occ = bytearray(self.occ)
        other.cells = [list(c) for c in self.cells]
        other.finished = dict(self.finished)
        other.history = list(self.history)
        return other

    def owner(self, cell: int | str) -> int | None:
        """The player whose piece stands on ``cell`` (None if empty)."""
        value = self.occ[self.topology.index(cell)]
        return value - 1 if value else None

    def _player(self, player: object) -> int:
        """``player`` if it is the number of a player of this game (else InvalidMoveError)."""
        if not _whole(player) or not 0 <= player < self.players:
            raise InvalidMoveError(f"there is no player {quoted(player)}; the players are 0 "
                                   f"to {self.players - 1}")
        return player

    def pieces_of(self, player: int) -> list[str]:
        """The names of the cells where ``player``'s pieces stand."""
        player = self._player(player)
        return sorted(self.topology.names[c] for c in self.cells[player])

    # -- moves ------------------------------------------------------------------------------
    def pair_moves(self) -> list[tuple[int, int]]:
        """The legal moves of the player to move as ``(from, to)`` cell indices (fast)."""
        if self._over:
            return []
        p = self.to_move
        pairs = pair_moves(self.occ, self.cells[p], self.topology, self.target_masks[p])
        if self.fill_rule == "swap":
            pairs += self._swaps(p)
        return pairs

    def _swaps(self, p: int) -> list[tuple[int, int]]:
        """The swap rule's moves: a step of ``p`` from outside its target camp onto
        another player's piece inside it."""
        occ, lock, own = self.occ, self.target_masks[p], p + 1
        return [(s, n) for s in self.cells[p] if not lock[s]
                for n in self.topology.neighbours[s] if lock[n] and occ[n] and occ[n] != own]

    def legal_moves(self) -> list[Move]:
        """Every legal move, each ``(from, to)`` pair once with a shortest path.

        A player who cannot move passes: the list is then ``[PASS]``.
        """
        if self._over:
            return []
        p = self.to_move
        topo, names, lock, occ = self.topology, self.topology.names, self.target_masks[p], self.occ
        _pairs, steps, first_jumps = _move_tables(topo)
        jumps = topo.jumps
        moves = []
        append = moves.append
        make = tuple.__new__
        for s in self.cells[p]:
            locked = lock[s]
            for n, move in steps[s]:
                if not occ[n] and (not locked or lock[n]):
                    append(move)
            # breadth-first over jump landings, carrying each landing's path of names
            occ[s] = 0
            paths = {s: None}
            frontier = []
            for over, land, move in first_jumps[s]:
                if occ[over] and not occ[land] and land not in paths and (
                        not locked or lock[land]):
                    paths[land] = move.path
                    frontier.append(land)
                    append(move)
            while frontier:
                nxt = []
                for c in frontier:
                    base = paths[c]
                    for over, land in jumps[c]:
                        if occ[over] and not occ[land] and land not in paths and (
                                not locked or lock[land]):
                            path = (*base, names[land])
                            paths[land] = path
                            nxt.append(land)
                            append(make(Move, (path,)))
                frontier = nxt
            occ[s] = p + 1
        if self.fill_rule == "swap":
            moves += [Move((names[a], names[b])) for a, b in self._swaps(p)]
        return moves or [PASS]

    def moves_from(self, cell: int | str) -> dict[str, Move]:
        """The legal moves of the piece on ``cell``, by destination name."""
        start = self.topology.index(cell)
        start_name = self.topology.names[start]
        return {m.end: m for m in self.legal_moves() if m.start == start_name}

    def check(self, move: Move | str) -> tuple[int, ...]:
        """Validate ``move`` for the player to move; returns its path as indices.

        Raises :class:`InvalidMoveError` (unreadable) or :class:`IllegalMoveError`
        (forbidden), saying what and where.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(move, Move) or not isinstance(move.path, tuple) or not all(
                isinstance(c, str) for c in move.path):
            raise InvalidMoveError(f"{quoted(str(move))} is not a move")
        topo = self.topology
        if self._over:
            raise IllegalMoveError(f"{move}: the game is over")
        p = self.to_move
        if move.is_pass:
            if self.pair_moves():
                raise IllegalMoveError(f"player {p} can move, so cannot pass")
            return ()
        path = tuple(topo.index(c) for c in move.path)
        start = path[0]
        if self.occ[start] != p + 1:
            whose = "empty" if not self.occ[start] else f"player {self.occ[start] - 1}'s"
            raise IllegalMoveError(f"{move}: {topo.names[start]} is {whose}, "
                                   f"not a piece of player {p}, who is to move")
        lock = self.target_masks[p]
        locked = lock[start]
        if len(set(path)) != len(path):
            raise IllegalMoveError(f"{move}: a chain never lands twice on the same cell")
        occ = self.occ
        if len(path) == 2 and path[1] in topo.neighbours[start]:
            if self.fill_rule == "swap" and (start, path[1]) in self._swaps(p):
                return path  # the swap rule: the two pieces change places
            steps = [(start, path[1], None)]
        else:
            steps = []
            for a, b in pairwise(path):
                over = next((o for o, land in topo.jumps[a] if land == b), None)
                if over is None:
                    what = "neither a step nor a jump" if len(path) == 2 else "not a jump"
                    raise IllegalMoveError(
                        f"{move}: {topo.names[a]}-{topo.names[b]} is {what}")
                steps.append((a, b, over))
        for a, b, over in steps:
            name = f"{topo.names[a]}-{topo.names[b]}"
            if over is not None and (not occ[over] or over == start):
                raise IllegalMoveError(f"{name}: there is no piece to jump over between "
                                       f"{topo.names[a]} and {topo.names[b]}")
            if occ[b] and b != start:
                raise IllegalMoveError(f"{name}: {topo.names[b]} is taken")
            if locked and not lock[b]:
                raise IllegalMoveError(f"{name}: a piece in its target camp must stay inside it")
        return path

    def play(self, move: Move | str) -> Move:
        """Check and make ``move`` (a :class:`Move` or its text); returns the Move made.

        On an error nothing changes.
        """
        path = self.check(move)
        self._push(path)
        return self.last_move()

    def push_unchecked(self, start: int, end: int, path: tuple[int, ...] | None = None) -> None:
        """Make a move from a legal ``(from, to)`` pair without checks (for bots).

        The path is worked out when not given (it only matters for the record).
        """
        if path is None and self.occ[end] and end in self.topology.neighbours[start]:
            path = (start, end)  # a swap (the swap rule)
        if path is None:
            path = shortest_path(self.occ, start, end, self.topology,
                                 self.target_masks[self.to_move]
                                 if self.target_masks[self.to_move][start] else None)
            if path is None:  # pragma: no cover - a bot's bug
                raise IllegalMoveError(f"no legal path {self.topology.names[start]}-"
                                       f"{self.topology.names[end]}")
        self._push(path)

    def _push(self, path: tuple[int, ...]) -> None:
        p = self.to_move
        if path:
            start, end = path[0], path[-1]
            other = self.occ[end]  # non-zero only in a swap: that piece goes to start
            self.occ[start] = other
            if other:
                theirs = self.cells[other - 1]
                theirs[theirs.index(end)] = start
            self.occ[end] = p + 1
            cells = self.cells[p]
            cells[cells.index(start)] = end
        self.ply += 1
        self.history.append((p, path, False))
        self.to_move = (p + 1) % self.players
        if p not in self.finished and self._has_finished(p):  # (on the position after)
            self.finished[p] = self.ply - 1
            self.history[-1] = (p, path, True)
        self._over = self._ends_now() or (not path and self._blocked())

    def _ends_now(self) -> bool:
        """A finisher ends the game when the round is complete (the same-round rule, even
        past the move limit); without a finisher the move limit is a draw at once."""
        if self.finished:
            return self.to_move == 0
        return self.move_limit is not None and self.ply >= self.move_limit

    def _blocked(self) -> bool:
        """Every player passed in the last round: nobody can ever move again."""
        n = self.players
        return len(self.history) >= n and all(not h[1] for h in self.history[-n:])

    def undo(self) -> Move:
        """Take back the last move; returns it. Raises IllegalMoveError at the start."""
        if not self.history:
            raise IllegalMoveError("there is no move to undo")
        move = self.last_move()
        p, path, finished_now = self.history.pop()
        if path:
            start, end = path[0], path[-1]
            other = self.occ[start]  # a swapped piece goes back
            self.occ[end] = other
            if other:
                theirs = self.cells[other - 1]
                theirs[theirs.index(start)] = end
            self.occ[start] = p + 1
            cells = self.cells[p]
            cells[cells.index(end)] = start
        if finished_now:
            del self.finished[p]
        self.ply -= 1
        self.to_move = p
        self._over = False
        return move

    def last_move(self) -> Move | None:
        """The last move made (None at the start)."""
        if not self.history:
            return None
        return Move(tuple(self.topology.names[c] for c in self.history[-1][1]))

    @property
    def moves(self) -> list[Move]:
        """Every move made so far, in order."""
        names = self.topology.names
        return [Move(tuple(names[c] for c in path)) for _p, path, _f in self.history]

    # -- the end ----------------------------------------------------------------------------
    def _has_finished(self, p: int) -> bool:
        """Every piece of ``p`` stands in the target camp, or the fill rule says the camp
        is won (:meth:`camp_filled`)."""
        cells, lock = self.cells[p], self.target_masks[p]
        if cells and all(lock[c] for c in cells):
            return True
        return self.camp_filled(p)

    def turns_taken(self, player: int, since: int = 0) -> int:
        """How many turns ``player`` has had (moves and passes) from ply ``since`` on
        (0: since the game began) up to now.

        >>> g = Game("star", 3)
        >>> for _ in range(4):
        ...     _ = g.play(g.legal_moves()[0])
        >>> [g.turns_taken(p) for p in range(3)], g.turns_taken(0, since=1)
        ([2, 1, 1], 1)
        """
        player = self._player(player)
        if not _whole(since) or since < 0:
            raise InvalidMoveError(f"{quoted(since)} is not a ply (a whole number from 0)")
        n = self.players
        starter = (self.to_move - self.ply) % n  # who moved at ply 0
        first = since + (player - starter - since) % n
        return len(range(first, self.ply, n))

    def stayed(self, cell: int | str) -> int:
        """How many of its owner's turns the piece on ``cell`` has stood there (0 if the
        cell is empty); a piece that has not moved since the game began (or since the
        position was read, :meth:`from_position_text`) has stood there all its turns.

        >>> g = Game("star", 2)
        >>> _ = g.play("d4-i5"); _ = g.play("a14-e13"); _ = g.play("a4-e5")
        >>> g.stayed("i5"), g.stayed("a1"), g.stayed("e13"), g.stayed("d4")
        (1, 2, 0, 0)
        """
        c = self.topology.index(cell)
        if not self.occ[c]:
            return 0
        return self.turns_taken(self.occ[c] - 1, self._arrivals().get(c, 0))

    def _arrivals(self) -> dict[int, int]:
        """``{cell: ply}``: from which ply on the piece on each cell has stood there, for
        the cells a recorded move ended on (the others: since ply 0). Worked out once per
        position."""
        history = self.history
        key = (len(history), history[-1] if history else None)
        cached = self.__dict__.get("_arrival_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        arrivals = {}
        base = self.ply - len(history)
        for i, (_p, path, _finished) in enumerate(history):
            if path:
                arrivals[path[-1]] = arrivals[path[0]] = base + i + 1  # (a swap moves both)
        self._arrival_cache = (key, arrivals)
        return arrivals

    def camp_filled(self, player: int, occ: bytearray | None = None) -> bool:
        """The fill rule (:data:`FILL_RULES`): ``player``'s target camp is full and holds
        at least one of its pieces; ``"bounded"``: every other piece in it is a blocker's,
        one whose owner has finished or that has stood there :attr:`fill_bound` of its
        owner's turns (:meth:`stayed`). Always False under ``"swap"``. ``occ``: another
        board of the same game (for bots; a piece it moved has just arrived).

        >>> g = Game.custom("star", 6, {0: ["d14", "c14", "b14", "a14", "c15", "b15",
        ...                                 "a15", "b16", "a16"], 3: ["a17"]})
        >>> g.camp_filled(0), g.fill_bound, g.stayed("a17")
        (False, 30, 0)
        >>> g.fill_rule = "literal"; g.camp_filled(0)
        True
        """
        player = self._player(player)
        if self.fill_rule == "swap":
            return False
        board = self.occ if occ is None else occ
        own, mine = player + 1, False
        others = []
        for c in self.targets[player]:
            v = board[c]
            if not v:
                return False
            if v == own:
                mine = True
            elif v - 1 not in self.finished:
                others.append(c)
        if not mine or self.fill_rule == "literal":
            return mine
        bound = self.fill_bound
        return all(board[c] == self.occ[c] and self.stayed(c) >= bound for c in others)

    def pieces_home(self, player: int) -> int:
        """How many of ``player``'s pieces stand in their target camp."""
        player = self._player(player)
        lock = self.target_masks[player]
        return sum(1 for c in self.cells[player] if lock[c])

    def rows_to_go(self, player: int) -> int:
        """The rows ``player``'s pieces still have to travel to fill the target camp.

        It is 0 exactly when every piece stands in the target camp (with fewer pieces
        than the camp holds, wherever they stand in it).

        >>> Game.custom("star", 2, {0: ["d14"], 1: ["a1"]}).rows_to_go(0)
        0
        """
        player = self._player(player)
        cells, lock = self.cells[player], self.target_masks[player]
        if all(lock[c] for c in cells):
            return 0
        rows = self.rows[player]
        best = sorted(rows[c] for c in self.targets[player])
        return max(1, sum(rows[c] for c in cells) - sum(best[:len(cells)]))

    def is_over(self) -> bool:
        """True when the game has ended (win, shared win or move limit)."""
        return self._over

    def result(self) -> Result:
        """The result so far; ``over`` is False while the game goes on."""
        n = self.players
        scores = []
        for p in range(n):
            if p in self.finished:
                scores.append((0, 0, 0))
            else:
                scores.append((1, -self.pieces_home(p), self.rows_to_go(p)))
        placings = tuple(1 + sum(1 for q in range(n) if scores[q] < scores[p]) for p in range(n))
        if not self._over:
            return Result(False, "playing", (), placings)
        winners = tuple(sorted(self.finished))
        if not winners:
            blocked = self.history and not self.history[-1][1] and self._blocked()
            return Result(True, "blocked" if blocked else "move_limit", (), placings)
        return Result(True, "win" if len(winners) == 1 else "shared", winners, placings)

    # -- text -------------------------------------------------------------------------------
    def position_text(self) -> str:
        """The position as text: board, players, who moves, where every piece stands.

        >>> g = Game("star", players=2); _ = g.play("d4-i5")
        >>> print(g.position_text())
        board: star
        players: 2
        pieces: 10
        move limit: none
        fill rule: bounded
        to move: 1
        moves made: 1
        finished: none
        player 0: a1 a2 b2 a3 b3 c3 a4 b4 c4 i5
        player 1: a14 b14 c14 d14 a15 b15 c15 a16 b16 a17
        >>> Game.from_position_text(g.position_text()).position_text() == g.position_text()
        True
        """
        lines = [
            f"board: {self.topology.key}",
            f"players: {self.players}",
            f"pieces: {self.pieces}",
            f"move limit: {self.move_limit if self.move_limit is not None else 'none'}",
            f"fill rule: {self.fill_rule}",
            f"to move: {self.to_move}",
            f"moves made: {self.ply}",
            "finished: " + (" ".join(f"{p}@{ply}" for p, ply in sorted(self.finished.items()))
                            or "none"),
        ]
        for p in range(self.players):
            lines.append(f"player {p}: " + " ".join(_name_sort(self.pieces_of(p))))
        return "\n".join(lines)

    @classmethod
    def from_position_text(cls, text: str) -> Game:
        """Read :meth:`position_text` back; raises CorruptSaveError on bad text.

        The game read has no history (nothing to undo). A text without a ``fill rule``
        line (written before there was a choice) is read with the ``"literal"`` rule it
        was played under.
        """
        if not isinstance(text, str):
            raise CorruptSaveError("a position must be text")
        fields: dict[str, tuple[int, str]] = {}
        for number, raw in enumerate(text.strip().splitlines(), 1):
            if not raw.strip():
                continue
            key, sep, value = raw.partition(":")
            if not sep:
                raise CorruptSaveError(f"line {number}: expected 'name: value', got {quoted(raw)}")
            key = key.strip().lower()
            if key in fields:
                raise CorruptSaveError(f"line {number}: {quoted(key)} appears twice")
            fields[key] = (number, value.strip())

        def get(key: str) -> tuple[int, str]:
            if key not in fields:
                raise CorruptSaveError(f"the position has no {key!r} line")
            return fields[key]

        def integer(key: str, allow_none: bool = False) -> int | None:
            line, value = get(key)
            if allow_none and value == "none":
                return None
            if not (value.isascii() and value.isdigit() and len(value) <= 10):
                raise CorruptSaveError(
                    f"line {line}: {key} must be a whole number, not {quoted(value)}")
            return int(value)

        rule_line, rule = fields.get("fill rule", (0, "literal"))
        if rule not in FILL_RULES:
            raise CorruptSaveError(f"line {rule_line}: unknown fill rule {quoted(rule)}; "
                                   f"choose one of {', '.join(FILL_RULES)}")
        try:
            game = cls(get("board")[1], integer("players"), integer("move limit", True),
                       integer("pieces"), rule)
        except ValueError as error:
            raise CorruptSaveError(str(error)) from None
        topo = game.topology
        occ = bytearray(topo.size)
        cells: list[list[int]] = []
        for p in range(game.players):
            line, value = get(f"player {p}")
            mine = []
            for name in value.split():
                try:
                    c = topo.index(name)
                except InvalidMoveError as error:
                    raise CorruptSaveError(f"line {line}: {error}") from None
                if occ[c]:
                    raise CorruptSaveError(f"line {line}: two pieces on {name}")
                occ[c] = p + 1
                mine.append(c)
            if not 0 < len(mine) <= game.pieces:
                raise CorruptSaveError(f"line {line}: player {p} has {len(mine)} pieces, "
                                       f"not 1 to {game.pieces}")
            cells.append(mine)
        to_move, ply = integer("to move"), integer("moves made")
        if to_move >= game.players:
            raise CorruptSaveError(f"line {get('to move')[0]}: no player {to_move}")
        finished = {}
        line, value = get("finished")
        if value != "none":
            for item in value.split():
                who, at, when = item.partition("@")
                if not (at and who.isascii() and who.isdigit() and when.isascii()
                        and when.isdigit() and len(who) + len(when) < 12
                        and int(who) < game.players and int(when) < ply):
                    raise CorruptSaveError(f"line {line}: {quoted(item)} is not player@move")
                finished[int(who)] = int(when)
        game.occ, game.cells, game.to_move, game.ply = occ, cells, to_move, ply
        for who, when in finished.items():  # (with those who finished before, as in play)
            game.finished = {q: at for q, at in finished.items() if at < when}
            if not game._has_finished(who):
                raise CorruptSaveError(f"line {line}: player {who} has not finished")
        extra = set(fields) - {"board", "players", "pieces", "move limit", "fill rule",
                               "to move", "moves made", "finished"} - {f"player {p}"
                                                            for p in range(game.players)}
        if extra:
            first = min(extra)
            raise CorruptSaveError(f"line {fields[first][0]}: unknown field {quoted(first)}")
        game.occ, game.cells, game.to_move, game.ply = occ, cells, to_move, ply
        game.finished = finished
        game._over = game._ends_now()
        return game

    def _repr_svg_(self) -> str:
        """The position as SVG, so a game shows itself in a notebook."""
        from mathgames.halma.view import render

        return render(self)

    def __repr__(self) -> str:
        return (f"<Game {self.topology.key}, {self.players} players, move {self.ply}, "
                f"player {self.to_move} to move>")

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves())


class _MoveTables(NamedTuple):
    """Per cell of a board, precomputed for move generation."""

    step_pairs: tuple  # (to, (from, to)) for each step
    steps: tuple  # (to, Move) for each step
    first_jumps: tuple  # (over, to, Move) for each single jump


_MOVE_TABLES: dict[str, _MoveTables] = {}


def _move_tables(topo: Topology) -> _MoveTables:
    """The board's :class:`_MoveTables`, built once per board."""
    if topo.key not in _MOVE_TABLES:
        names, cells = topo.names, range(topo.size)
        _MOVE_TABLES[topo.key] = _MoveTables(
            step_pairs=tuple(tuple((n, (c, n)) for n in topo.neighbours[c]) for c in cells),
            steps=tuple(tuple((n, Move((names[c], names[n]))) for n in topo.neighbours[c])
                        for c in cells),
            first_jumps=tuple(tuple((o, t, Move((names[c], names[t]))) for o, t in topo.jumps[c])
                              for c in cells),
        )
    return _MOVE_TABLES[topo.key]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 10 ** 9


def _mask(size: int, cells: Iterable[int]) -> bytearray:
    mask = bytearray(size)
    for c in cells:
        mask[c] = 1
    return mask


def _name_sort(names: list[str]) -> list[str]:
    return sorted(names, key=lambda n: (int(n[1:]), n[0]))
