"""The game widgets' part of playing on any screen, without a browser: the rules panels,
the question before a game is thrown away, Undo after the end, the Triomino keyboard
cursor, what screen readers are told, and names that follow the language."""

from __future__ import annotations

import dataclasses
import re

import pytest

from mathgames.core.i18n import set_language
from mathgames.halma.widget import HalmaApp
from mathgames.matematiko.rules import COMBINATIONS, score_line
from mathgames.matematiko.widget import EXAMPLE_LINES, MatematikoApp
from mathgames.triomino.rules import PRESETS
from mathgames.triomino.widget import TriominoApp


@pytest.fixture
def language():
    """Switch the language for one test, and back."""
    previous = []

    def switch(code: str) -> None:
        previous.append(set_language(code))

    yield switch
    if previous:
        set_language(previous[0])


def open_panel(app) -> str:
    app.howto.button.value = True
    return app.howto.text.value


def test_triomino_panel_reads_its_bonuses_from_the_chosen_rules() -> None:
    app = TriominoApp(seed=1)
    app.preset_select.value = "custom"
    app.number_inputs["bridge_bonus"].value = 33
    app.hexagon_inputs[1].value = 77
    text = open_panel(app)
    assert "+33" in text and "+77" in text and "Custom rules" in text
    app.preset_select.value = "goliath"  # the open panel follows the choice
    goliath = PRESETS["goliath"]
    text = app.howto.text.value
    assert f"+{goliath.bridge_bonus}" in text and "+33" not in text
    assert " / ".join(f"+{b}" for b in goliath.hexagon_bonuses) in text
    app.preset_select.value = "family"
    assert "No points are kept" in app.howto.text.value
    assert "<svg" in app.howto.text.value and "data-cell" not in app.howto.text.value


def test_matematiko_panel_has_the_whole_table_with_true_example_lines() -> None:
    text = open_panel(MatematikoApp(code="ABC234"))
    for combo in COMBINATIONS:
        line = EXAMPLE_LINES[combo.name]
        assert score_line(list(line)).combination == combo.name
        assert (f"<td>{' '.join(map(str, line))}</td><td>{combo.row_points}</td>"
                f"<td>{combo.diagonal_points}</td>") in text
    assert text.count("<tr>") == len(COMBINATIONS) + 1


@pytest.mark.parametrize("board", ["halma", "star"])
def test_halma_panel_explains_chains_camps_goal_lock_and_fill(board: str) -> None:
    text = open_panel(HalmaApp(board=board))
    for words in ("chained", "target camp", "only move inside that camp",
                  "every other place of that camp"):
        assert words in text
    assert "<svg" in text and 'data-cell="' not in text


@pytest.mark.parametrize("code", ["pl", "cs", "ru"])
def test_panels_are_translated(language, code: str) -> None:
    english = {cls.__name__: open_panel(cls()) for cls in (TriominoApp, MatematikoApp)}
    english["HalmaApp"] = open_panel(HalmaApp())
    language(code)
    for cls in (TriominoApp, MatematikoApp, HalmaApp):
        translated = open_panel(cls())
        headings = re.findall(r"<h3>([^<]*)</h3>", translated)
        assert headings and not set(headings) & set(
            re.findall(r"<h3>([^<]*)</h3>", english[cls.__name__]))
        assert "The picture" not in translated and "In the picture" not in translated


def test_new_game_asks_first_in_every_game() -> None:
    trio = TriominoApp(seed=2)
    trio.start()
    trio.new_game_button.click()
    assert trio.confirm.layout.display is None and trio.setup.layout.display == "none"
    trio.confirm.no_button.click()
    assert trio.game is not None and trio.play_area.layout.display is None
    trio.new_game_button.click()
    trio.confirm.yes_button.click()
    assert trio.setup.layout.display is None
    mate = MatematikoApp(code="ABC234")
    mate.start()
    mate.new_button.click()
    assert mate.confirm.layout.display is None and mate.setup.layout.display == "none"
    halma = HalmaApp(board="star")
    halma.start()
    halma.board.click_cell("c3")
    halma.board.click_cell("g5")
    halma.new_button.click()
    assert halma.confirm.layout.display is None and halma.setup.layout.display == "none"


def test_matematiko_undo_is_closed_after_the_game_ends() -> None:
    app = MatematikoApp(code="ABC234", bots=("greedy",))
    app.start()
    for index in range(25):
        grid = app.match.grid(app.viewing)
        app.place(grid.index(None))
        assert app.match.called == min(index + 2, 25) or app.match.is_over
    assert app.match.is_over
    assert app.undo_button.disabled
    total = app.match.points_so_far(app.viewing)
    app.undo()
    assert app.match.is_over and app.match.points_so_far(app.viewing) == total
    assert "nothing can be undone" in app.message.value
    assert app.legend.value == ""
    app.new_button.click()  # over: no question
    assert app.setup.layout.display is None


def test_matematiko_hint_legend_explains_the_arrows() -> None:
    app = MatematikoApp(code="ABC234")
    app.start()
    app.hint_toggle.value = True
    assert "→" in app.legend.value and "↓" in app.legend.value and "↘" in app.legend.value
    app.hint_toggle.value = False
    assert app.legend.value == ""


def test_triomino_keyboard_cursor_places_a_tile_and_is_announced() -> None:
    app = TriominoApp(seed=2)
    app.start()
    game = app.game
    assert "pick a tile from your rack" in app.status.value
    placement = game.legal_placements()[0]
    app.board.press_key(str(game.hand().index(placement.tile) + 1))
    assert "now tap a dashed place" in app.status.value
    for _ in range((3 - placement.rotation) % 3):
        app.board.press_key("r")
    places = sorted(game.table.frontier())
    for _ in range(places.index(placement.cell) + 1):
        app.board.press_key("n")
    assert app.cursor == placement.cell
    assert app.board.announce.startswith(
        f"Free place {places.index(placement.cell) + 1} of {len(places)}")
    assert 'class="mg-cursor"' in app.board.svg
    tiles = len(game.table)
    app.board.press_key("Enter")
    assert len(game.table) > tiles and game.table[placement.cell].tile == placement.tile
    assert f"You placed {placement.tile}" in app.board.announce
    app.board.press_key("Enter")  # nothing picked: refused, and said
    assert app.board.announce.startswith("Select a tile from your rack first.")


def test_triomino_arrows_move_to_a_free_place_in_that_direction() -> None:
    app = TriominoApp(seed=2)
    app.start()
    from mathgames.triomino.geometry import cell_xy

    app.board.press_key("ArrowLeft")
    start = app.cursor
    assert start in app.game.table.frontier()
    app.board.press_key("ArrowRight")
    moved = app.cursor
    assert moved == start or cell_xy(moved)[0] > cell_xy(start)[0]


def test_names_and_cell_titles_follow_the_language(language) -> None:
    trio = TriominoApp(seed=2)
    trio.start()
    saved = trio.save()
    halma = HalmaApp()
    halma.start()
    language("pl")
    resumed = TriominoApp()
    resumed.load(saved)
    assert resumed.names() == ["Ty", "Bot 1"]
    assert "You" not in resumed.status.value and "Ty" in resumed.status.value
    assert "<title>a1: Gracz 1" in halma.board.svg
    assert "player 1" not in halma.board.svg


def test_tooltips_follow_labels_and_icon_buttons_are_named(language) -> None:
    app = TriominoApp()
    assert app.preset_select.tooltip == app.preset_select.description == "Rules"
    assert app.zoom_in_button.tooltip
    language("cs")
    assert app.preset_select.tooltip == app.preset_select.description != "Rules"
    halma = HalmaApp()
    assert halma.zoom_in_button.tooltip and halma.zoom_out_button.tooltip


def test_halma_zoom_steps() -> None:
    app = HalmaApp()
    app.start()
    assert app.board.zoom == 1.0 and app.zoom_out_button.disabled
    app.board.press_key("+")
    assert app.board.zoom > 1.0 and not app.zoom_out_button.disabled
    app.zoom_out_button.click()
    assert app.board.zoom == 1.0


def test_custom_rules_panel_survives_clashing_values() -> None:
    app = TriominoApp()
    app.preset_select.value = "custom"
    app.number_inputs["max_draws"].value = -3
    assert dataclasses.is_dataclass(app.shown_rules())
    assert "<table" in open_panel(app)
