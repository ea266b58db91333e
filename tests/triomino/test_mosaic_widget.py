"""The mosaic widget, driven from Python as the browser would (clicks on cells, keys)."""

from __future__ import annotations

import base64
import datetime
import json
import random
import re

import pytest

from mathgames.core.errors import CorruptSaveError
from mathgames.triomino.geometry import cell_id, parse_cell
from mathgames.triomino.mosaic import MAX_TILES, canonical
from mathgames.triomino.mosaic_gallery import GALLERY
from mathgames.triomino.mosaic_widget import MosaicApp

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def links(app: MosaicApp) -> dict[str, bytes]:
    found = re.findall(r'class="(mg-download-[a-z]+)" download="[^"]*" '
                       r'href="data:[^;]+;base64,([^"]+)"', app.downloads.value)
    return {css: base64.b64decode(data) for css, data in found}


def test_click_places_and_removes_and_counts():
    app = MosaicApp()
    app.board.click_cell("c5_5")
    app.colour_select.value = 2
    app.board.click_cell("c6_5")
    assert app.mosaic.cells == {(5, 5): 0, (6, 5): 2}
    assert "Tiles used: 2 of 56" in app.status.value
    assert app.board.svg.count('data-filled="1"') == 2
    app.board.click_cell("c5_5")
    assert set(app.mosaic.cells) == {(6, 5)}
    app.undo_button.click()
    assert set(app.mosaic.cells) == {(5, 5), (6, 5)}


def test_the_57th_tile_is_refused_with_a_message():
    app = MosaicApp()
    cells = [f"c{x}_{y}" for y in range(3) for x in range(20)][:MAX_TILES]
    for cell in cells:
        app.board.click_cell(cell)
    assert len(app.mosaic) == MAX_TILES
    app.board.click_cell("c0_8")
    assert len(app.mosaic) == MAX_TILES and "56" in app.message.value


def test_selection_rotates_mirrors_moves_and_is_removed():
    app = MosaicApp()
    for cell in ("c9_4", "c10_4", "c11_4", "c12_4"):  # the straight tetriamond (chiral)
        app.board.click_cell(cell)
    app.board.click_cell("c2_2")
    app.tool_select.value = "select"
    for cell in ("c9_4", "c10_4", "c11_4", "c12_4"):
        app.board.click_cell(cell)
    before = canonical(app.mosaic.selection, free=False)
    app.rotate_button.click()
    assert canonical(app.mosaic.selection, free=False) == before
    app.mirror_button.click()
    assert canonical(app.mosaic.selection, free=False) != before
    assert canonical(app.mosaic.selection) == canonical({(9, 4), (10, 4), (11, 4), (12, 4)})
    moved_from = set(app.mosaic.selection)
    app.move_buttons["d"].click()
    assert app.mosaic.selection == {(x + 2, y) for x, y in moved_from}
    assert 'class="mg-selection"' in app.board.svg
    app.delete_button.click()
    assert set(app.mosaic.cells) == {(2, 2)}
    app.rotate_button.click()  # nothing selected: a message, no change
    assert "Nothing is selected" in app.message.value and set(app.mosaic.cells) == {(2, 2)}


def test_keyboard_places_at_the_cursor_and_works_the_selection():
    app = MosaicApp()
    start = app.cursor
    app.board.press_key("ArrowRight")
    app.board.press_key("Enter")
    placed = (start[0] + 1, start[1])
    assert set(app.mosaic.cells) == {placed}
    assert 'class="mg-cursor"' in app.board.svg
    app.board.press_key("s")  # the Select tool
    app.board.press_key(" ")
    assert app.mosaic.selection == {placed}
    app.board.press_key("d")
    assert set(app.mosaic.cells) == {(placed[0] + 2, placed[1])}
    app.board.press_key("u")
    assert set(app.mosaic.cells) == {placed}


@pytest.mark.parametrize("item", GALLERY, ids=[p.key for p in GALLERY])
def test_every_puzzle_is_recognised_when_filled_in_any_order(item):
    app = MosaicApp()
    app.choose_puzzle(item.key)
    ids = app.target_ids()
    assert len(ids) == item.size and app.board.svg.count('fill="#dfe9f3"') == item.size
    random.Random(item.size).shuffle(ids)
    app.board.click_cell(ids[0])
    app.board.click_cell(ids[0])  # placed and taken off again
    for cell in ids:
        assert not app.solved
        app.board.click_cell(cell)
    assert app.solved
    assert f"Exactly filled, with {item.size} triangles!" in app.status.value
    # one triangle too many: no longer exactly filled
    outside = next(c for c in (f"c{x}_0" for x in range(28)) if parse_cell(c) not in app.target())
    app.board.click_cell(outside)
    assert not app.solved and "1 triangle outside the outline" in app.status.value


def test_downloads_hold_the_figure_as_json_svg_and_png():
    app = MosaicApp()
    for cell in ("c3_3", "c4_3", "c5_3"):
        app.board.click_cell(cell)
    files = links(app)
    assert json.loads(files["mg-download-json"])["cells"] == [[3, 3, 0], [4, 3, 0], [5, 3, 0]]
    svg = files["mg-download-svg"].decode()
    assert svg.startswith("<svg") and svg.count("<polygon") == 3 and "data-cell" not in svg
    assert files["mg-download-png"].startswith(b"\x89PNG")


def test_save_load_round_trip_with_a_puzzle_and_bad_files_change_nothing():
    app = MosaicApp()
    app.choose_puzzle("bird")
    for cell in app.target_ids()[:5]:
        app.board.click_cell(cell)
    saved = app.save()
    other = MosaicApp()
    other.load(saved)
    assert other.puzzle is not None and other.puzzle.key == "bird"
    assert other.mosaic.cells == app.mosaic.cells and other.target() == app.target()
    before = other.save()
    broken = json.loads(saved)
    broken["puzzle"]["rows"] = ["#x#"]
    for text in ("{", json.dumps(broken), saved.replace('"cells": [', '"cells": [[1, 1, 9], ')):
        with pytest.raises(CorruptSaveError):
            other.load(text)
        assert other.save() == before
    # an uploaded file: a bad one is refused with a message
    other.upload.value = ({"name": "x.json", "type": "application/json", "size": 3,
                           "content": memoryview(b"{}}"), "last_modified": NOW},)
    assert "not a saved mosaic" in other.message.value and other.save() == before
    fresh = MosaicApp()
    fresh.upload.value = ({"name": "bird.json", "type": "application/json",
                           "size": len(saved), "content": memoryview(saved.encode()),
                           "last_modified": NOW},)
    assert fresh.save() == saved


def test_a_kept_copy_is_offered_after_a_reload():
    app = MosaicApp()
    app.board.click_cell("c4_4")
    kept = app.board.storage_value
    reloaded = MosaicApp()
    reloaded.board.offer_stored(kept)
    reloaded.resume.resume_button.click()
    assert set(reloaded.mosaic.cells) == {(4, 4)}


def test_make_a_puzzle_from_a_figure():
    app = MosaicApp()
    app.make_puzzle_button.click()
    assert "Place some triangles first" in app.message.value
    for cell in ("c4_4", "c5_4", "c6_4", "c5_5", "c6_5"):
        app.board.click_cell(cell)
    app.make_puzzle_button.click()
    assert app.puzzle is not None and app.puzzle.size == 5 and len(app.mosaic) == 0
    for cell in app.target_ids():
        app.board.click_cell(cell)
    assert app.solved
    # two separate pieces cannot be a puzzle
    app.mode_select.value = "free"
    app.board.click_cell(cell_id((1, 1)))
    app.board.click_cell(cell_id((9, 9)))
    app.make_puzzle_button.click()
    assert "one piece" in app.message.value


def test_labels_follow_the_language():
    from mathgames.core.i18n import set_language

    app = MosaicApp()
    old = set_language("pl")
    try:
        assert app.undo_button.description != "Undo"
        assert "56" in app.status.value and "Tiles used" not in app.status.value
    finally:
        set_language(old)
    assert app.undo_button.description == "Undo"


def test_the_selection_cannot_leave_the_board():
    app = MosaicApp()
    app.board.click_cell("c0_4")
    app.board.click_cell("c1_4")
    app.tool_select.value = "select"
    app.board.click_cell("c0_4")
    app.board.click_cell("c1_4")
    app.move_buttons["a"].click()  # two columns to the left: off the board
    assert set(app.mosaic.cells) == {(0, 4), (1, 4)}
    assert app.mosaic.selection == {(0, 4), (1, 4)}
    assert "leave the board" in app.message.value
    app.move_buttons["d"].click()  # the other way is fine
    assert set(app.mosaic.cells) == {(2, 4), (3, 4)} and app.message.value == ""


def test_a_figure_made_elsewhere_is_moved_onto_the_board():
    from mathgames.triomino.mosaic import Mosaic

    far = Mosaic({(-40, -7): 1, (-39, -7): 0, (-39, -6): 2})
    app = MosaicApp()
    app.load(far.to_json())
    cells = app.mosaic.cells
    assert sorted(cells.values()) == [0, 1, 2] and len(cells) == 3
    assert all(0 <= x < 28 and 0 <= y < 12 for x, y in cells)
    assert canonical(cells, free=False) == canonical(far.cells, free=False)
    wide = Mosaic({(x, 0): 0 for x in range(40)})  # 40 triangles in a row: wider than the board
    with pytest.raises(CorruptSaveError):
        app.load(wide.to_json())
    assert app.mosaic.cells == cells
