"""A straightforward reference move generator for Halma and Chinese checkers.

It knows nothing of the engine's integer tables: the board is a set of
lattice coordinates, a position is a dict ``{coordinate: player}``, and jump
chains are found by breadth-first search over sets of coordinates, following the
rules file word by word. The benchmark times it against the engine, and the
tests use it as a correctness oracle.
"""

from __future__ import annotations

from collections import deque

Cell = tuple[int, int]


def reference_moves(board_cells: set[Cell], directions: list[Cell], position: dict[Cell, int],
                    player: int, target: set[Cell]) -> dict[tuple[Cell, Cell], int]:
    """Every legal move of ``player`` as ``{(from, to): number of jumps}`` (0 for a step).

    ``target``: the player's target camp (a piece already there must land
    only inside it, at a step and at every jump of a chain).
    """
    moves: dict[tuple[Cell, Cell], int] = {}
    for start, owner in position.items():
        if owner != player:
            continue
        locked = start in target
        occupied = set(position) - {start}  # the moving piece has left its cell

        def may_land(cell: Cell, locked: bool = locked, occupied: set[Cell] = occupied) -> bool:
            return cell in board_cells and cell not in occupied and (
                not locked or cell in target)

        for dx, dy in directions:
            step = (start[0] + dx, start[1] + dy)
            if may_land(step):
                moves[(start, step)] = 0
        seen = {start}
        queue = deque([(start, 0)])
        while queue:
            cell, jumps = queue.popleft()
            for dx, dy in directions:
                over = (cell[0] + dx, cell[1] + dy)
                land = (cell[0] + 2 * dx, cell[1] + 2 * dy)
                if over in occupied and may_land(land) and land not in seen:
                    seen.add(land)
                    moves[(start, land)] = jumps + 1
                    queue.append((land, jumps + 1))
    return moves


def reference_moves_of_game(game) -> dict[tuple[str, str], int]:
    """The reference moves of a :class:`mathgames.halma.game.Game`'s player to move, by name."""
    topo = game.topology
    position = {topo.coords[c]: p for p in range(game.players) for c in game.cells[p]}
    target = {topo.coords[c] for c in game.targets[game.to_move]}
    found = reference_moves(set(topo.coords), list(topo.directions), position,
                            game.to_move, target)
    index = {coord: name for coord, name in zip(topo.coords, topo.names, strict=True)}
    return {(index[a], index[b]): n for (a, b), n in found.items()}
