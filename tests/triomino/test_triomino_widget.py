"""The app driven from Python, the way a browser would drive it."""

from __future__ import annotations

import json

import pytest

from mathgames.core.errors import CorruptSaveError
from mathgames.core.i18n import set_language
from mathgames.triomino import Tile, cell_id
from mathgames.triomino.view import rack_id
from mathgames.triomino.widget import TriominoApp
from tests.triomino.playing import click_placement


def started(**options) -> TriominoApp:
    app = TriominoApp(**options)
    app.start_button.click()
    return app


def human_move(app: TriominoApp) -> None:
    if app.hidden:
        app.ready_button.click()
    placements = app.game.legal_placements()
    if placements:
        click_placement(app, placements[0])
    elif not app.draw_button.disabled:
        app.draw_button.click()
    else:
        assert not app.pass_button.disabled
        app.pass_button.click()


def test_setup_then_play():
    app = TriominoApp(seed=3)
    assert app.play_area.layout.display == "none" and app.game is None
    app.start_button.click()
    assert app.setup.layout.display == "none" and app.play_area.layout.display is None
    game = app.game
    assert game.rules.name == "pressman" and game.players == 2 and list(app.bots) == [1]
    assert game.current == 0 and game.is_start_move
    # the empty table offers the middle cell only
    assert app.board.cell_ids == {cell_id((0, 0))}
    assert f"Starting player: You, with {game.start_tiles[0]}" in app.message.value
    app = TriominoApp(seed=4, preset="goliath")
    app.start_button.click()
    assert "Drawing for the start" in app.message.value


def test_placing_by_clicking_updates_the_score_sheet():
    app = started(seed=3)
    before = app.sheet.value
    placement = app.game.legal_placements()[0]
    click_placement(app, placement)
    assert len(app.game.table) >= 1 and app.game.table.order[0] == placement
    assert app.sheet.value != before
    assert f"tile {placement.tile} +{placement.tile.value}" in app.sheet.value
    assert "start bonus +10" in app.sheet.value
    # the bot answered and the message says what it did
    assert app.game.current == 0 and "Bot 1" in app.message.value


def test_a_refusal_names_the_corner_and_changes_nothing():
    app = started(seed=3)
    click_placement(app, app.game.legal_placements()[0])
    game = app.game
    # find a hand tile and a frontier cell where the current rotation does not fit
    for tile in game.hand():
        for cell in sorted(game.table.frontier()):
            if not game.table.fits(_placement(tile, cell, 0)):
                break
        else:
            continue
        break
    before = game.to_json()
    app.select(tile)
    app.board.click_cell(cell_id(cell))
    assert game.to_json() == before
    assert "mg-error" in app.message.value
    assert "corner" in app.message.value or "edge" in app.message.value


def _placement(tile, cell, rotation):
    from mathgames.triomino import Placement

    return Placement(tile, cell, rotation)


def test_click_without_a_selected_tile():
    app = started(seed=3)
    app.board.click_cell(cell_id((0, 0)))
    assert "Select a tile" in app.message.value and len(app.game.table) == 0


def test_hint_mode_highlights_every_fitting_cell():
    app = started(seed=3)
    click_placement(app, app.game.legal_placements()[0])
    game = app.game
    tile = next((t for t in game.hand() if game.legal_placements(t)), None)
    assert tile is not None  # seed 3 deals a hand with a fitting tile (a skip would hide it)
    app.select(tile)
    app.hint_button.value = True
    cells = {p.cell for p in game.legal_placements(tile)}
    svg = app.board.svg
    for cell in cells:
        polygon = svg.split(f'data-cell="{cell_id(cell)}"')[1].split("/>")[0]
        assert "#009e73" in polygon  # the hint outline
    app.hint_button.value = False
    assert "#009e73" not in app.board.svg


def test_keys_rotate_select_and_zoom():
    app = started(seed=3)
    app.board.press_key("1")
    assert app.selected == app.game.hand()[0]
    app.board.press_key("r")
    assert app.rotation == 2
    app.board.press_key("r")
    assert app.rotation == 1
    app.board.press_key("+")
    assert app.zoom_level == 1 and not app.zoom_out_button.disabled
    app.board.press_key("-")
    assert app.zoom_level == 0
    app.board.press_key("Escape")
    assert app.selected is None


def test_draw_and_pass_follow_the_preset():
    app = started(seed=3)
    assert app.draw_button.disabled and app.pass_button.disabled  # the first move
    click_placement(app, app.game.legal_placements()[0])
    game = app.game
    if game.legal_placements():
        assert app.draw_button.disabled  # pressman: draw only when nothing fits
    app = started(seed=3, preset="schmidt")
    click_placement(app, app.game.legal_placements()[0])
    if app.game.phase == "play":
        assert not app.draw_button.disabled  # schmidt: draw whenever you like
        pool = len(app.game.pool)
        app.draw_button.click()
        assert len(app.game.pool) == pool - 1 and "drew 1 tile -5" in app.sheet.value
        assert app.selected == app.game.last_drawn


def test_hot_seat_hides_each_hand_until_ready():
    app = started(seed=3, players=3, bots=1)
    assert app.humans == [0, 1] and app.hidden
    assert app.rack.layout.display == "none" and app.ready_box.layout.display is None
    assert app.board.cell_ids == frozenset()  # nothing to click until Ready
    app.ready_button.click()
    assert not app.hidden and app.rack.layout.display is None
    first = app.game.current
    human_move(app)
    if app.game.phase == "play" and app.game.current != first and app.game.current in (0, 1):
        assert app.hidden


def test_undo_takes_back_the_bots_reply_too():
    app = started(seed=3)
    state = app.game.to_json()
    click_placement(app, app.game.legal_placements()[0])
    assert len(app.game.table) == 2  # the bot answered
    app.undo_button.click()
    assert app.game.to_json() == state


def test_a_whole_game_with_summaries_and_next_round():
    app = started(seed=5, preset="pressman")
    game = app.game
    rounds_seen = set()
    for _ in range(3000):
        if game.phase == "game_over":
            break
        if game.phase == "round_over":
            assert app.next_round_button.layout.display is None
            assert "Round" in app.summary.value
            rounds_seen.add(game.round)
            app.next_round_button.click()
            continue
        human_move(app)
    assert game.phase == "game_over" and "Game over" in app.summary.value
    assert game.scores == [sum(e.points for e in game.sheet if e.player == p) for p in (0, 1)]
    assert f"<b>{game.scores[0]}</b>" in app.sheet.value


def test_save_resume_and_corrupt_copies():
    app = started(seed=3)
    click_placement(app, app.game.legal_placements()[0])
    saved = app.board.storage_value
    other = TriominoApp()
    other.board.offer_stored(saved)
    other.banner.resume_button.click()
    assert other.game.to_json() == app.game.to_json() and other.bots.keys() == app.bots.keys()
    before = other.game.to_json()
    for bad in ("{", '{"format": "x"}', saved.replace('"bots":{"1"', '"bots":{"7"')):
        with pytest.raises(CorruptSaveError):
            other.load(bad)
        assert other.game.to_json() == before


def test_custom_rules_and_solitaire():
    app = TriominoApp()
    app.preset_select.value = "custom"
    assert app.custom_box.layout.display is None
    app.base_select.value = "pressman"
    app.number_inputs["bridge_bonus"].value = 30
    app.start_button.click()
    assert app.game.rules.bridge_bonus == 30 and app.game.rules.two_sided_bonus == 40
    app = TriominoApp()
    app.preset_select.value = "custom"
    app.number_inputs["draw_penalty"].value = 99999
    app.start_button.click()
    assert "mg-error" in app.setup_message.value and app.game is None
    app = TriominoApp(preset="solitaire")
    assert app.players_select.value == 1
    app.start_button.click()
    assert app.game.players == 1 and len(app.game.table) == 1 and not app.bots


def test_translated_labels():
    app = started(seed=3)
    try:
        set_language("pl")
        assert app.draw_button.description != "Draw"
        assert "Runda" in app.status.value
    finally:
        set_language("en")
    assert app.draw_button.description == "Draw"


def test_rack_ignores_clicks_on_other_tiles():
    app = started(seed=3)
    missing = next(t for t in (Tile.parse("5-5-5"), Tile.parse("0-0-0"), Tile.parse("1-1-1"))
                   if t not in app.game.hands[0])
    app.select(missing)
    assert app.selected is None and "not in your hand" in app.message.value


def test_hint_mode_without_a_tile_shows_every_spot_and_dims_stuck_tiles():
    app = started(seed=3)
    click_placement(app, app.game.legal_placements()[0])
    game = app.game
    app.select(None)
    app.hint_button.value = True
    legal = game.legal_placements()
    for cell in {p.cell for p in legal}:
        polygon = app.board.svg.split(f'data-cell="{cell_id(cell)}"')[1].split("/>")[0]
        assert "#009e73" in polygon
    fitting = {p.tile for p in legal}
    for tile in game.hand():
        group = app.rack.svg.split(f'data-cell="{rack_id(tile)}"')[1].split(">")[0]
        assert ('opacity="1"' in group) == (tile in fitting)


def test_a_language_change_keeps_the_custom_values():
    app = TriominoApp(preset="solitaire")
    app.preset_select.value = "custom"
    app.number_inputs["bridge_bonus"].value = 33
    app.players_select.value = 3
    try:
        set_language("cs")
        assert app.preset_select.value == "custom" and app.players_select.value == 3
        assert app.number_inputs["bridge_bonus"].value == 33
    finally:
        set_language("en")


def test_a_resumed_game_can_still_undo_the_last_move():
    app = started(seed=3)
    before = app.game.to_json()
    click_placement(app, app.game.legal_placements()[0])  # the bot answers at once
    other = TriominoApp()
    other.load(app.board.storage_value)
    assert other.game.to_json() == app.game.to_json() and not other.undo_button.disabled
    other.undo_button.click()
    assert other.game.to_json() == before
    # Only what undo needs travels with the save: the states back to the human's last move.
    human_move(app)
    assert app.game.current == 0 and len(app.game.undo_snapshots(99)) >= 4
    kept = json.loads(app.board.storage_value)["undo"]
    assert kept == app.game.undo_snapshots(99)[-len(kept):]
    assert kept[0]["current"] == 0 and all(state["current"] == 1 for state in kept[1:])


def test_a_forged_undo_state_is_refused_and_changes_nothing():
    app = started(seed=3)
    click_placement(app, app.game.legal_placements()[0])
    data = json.loads(app.board.storage_value)
    other = started(seed=8)
    before = other.game.to_json()
    for damage in ({"format": "chess"}, dict(data["undo"][0], names=["X", "Y"]),
                   dict(data["undo"][0], pool=[])):
        forged = json.dumps(dict(data, undo=[damage]))
        with pytest.raises(CorruptSaveError, match="undo state 1"):
            other.load(forged)
        assert other.game.to_json() == before
