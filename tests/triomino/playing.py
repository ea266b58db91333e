"""Shared by the tests: whole games played by bots, every action checked legal; a
placement clicked in the app as a player would."""

from __future__ import annotations

from mathgames.triomino import Game, Placement, cell_id
from mathgames.triomino.view import rack_id
from mathgames.triomino.widget import TriominoApp


def play(game: Game, bots: list) -> Game:
    """Play ``game`` to its end with ``bots`` (one per seat); every action must be legal."""
    moves = 0
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            continue
        action = bots[game.current].choose(game)
        assert action in game.legal_actions() or (
            action[0] == "place" and action[1] in game.legal_placements())
        game.apply(action)
        moves += 1
        assert moves < 5000
    return game


def select_placement(app: TriominoApp, placement: Placement) -> None:
    """Pick the placement's tile from the rack and turn it as the placement wants."""
    if app.selected != placement.tile:
        app.rack.click_cell(rack_id(placement.tile))
    assert app.selected == placement.tile
    while app.rotation != placement.rotation:
        app.rotate_button.click()


def click_placement(app: TriominoApp, placement: Placement) -> None:
    """Play ``placement`` by clicks: the tile, its turns, then its place on the table."""
    select_placement(app, placement)
    app.board.click_cell(cell_id(placement.cell))
