"""Nothing lost to a reload the moment a move appears: every game widget hands the browser
its kept copy (``board.storage_value``) before anything that shows the move.

Each trait change is one message to the browser, in the order Python makes them. When the
page showed a move before it stored it, a reload right then resumed the game without that
move (seen once in the browser tests: a Chinese-checkers game came back at move 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mathgames.halma.widget import HalmaApp
from mathgames.matematiko.widget import MatematikoApp
from mathgames.triomino import cell_id
from mathgames.triomino.mosaic_widget import MosaicApp
from mathgames.triomino.widget import TriominoApp
from tests.triomino.playing import select_placement

# Each game, ready for a move: (app, the widgets that show the move, the move's last click).
Ready = tuple[Any, list[Any], Callable[[], None]]


def halma() -> Ready:
    app = HalmaApp(board="star", seats=["human", "greedy"])
    app.start_button.click()
    move = app.game.legal_moves()[0]
    app.board.click_cell(move.start)
    return app, [app.board, app.move_list, app.status], lambda: app.board.click_cell(move.end)


def matematiko() -> Ready:
    app = MatematikoApp()
    app.start_button.click()
    app.call_button.click()  # the first number
    return app, [app.board, app.total, app.status], lambda: app.board.click_cell("c3")


def triomino() -> Ready:
    app = TriominoApp(seed=3)
    app.start_button.click()
    placement = app.game.legal_placements()[0]
    select_placement(app, placement)
    return (app, [app.board, app.rack, app.status, app.sheet],
            lambda: app.board.click_cell(cell_id(placement.cell)))


def mosaic() -> Ready:
    app = MosaicApp()
    return app, [app.board, app.status], lambda: app.board.click_cell("c4_4")


@pytest.mark.parametrize("ready", [halma, matematiko, triomino, mosaic],
                         ids=lambda ready: ready.__name__)
def test_the_kept_copy_changes_before_the_move_shows(ready: Callable[[], Ready]) -> None:
    app, shown, move = ready()
    before = app.board.storage_value
    changes: list[str] = []
    app.board.observe(lambda _change: changes.append("kept"), "storage_value")
    for widget in shown:  # boards show an SVG, the rest HTML
        widget.observe(lambda _change: changes.append("shown"),
                       "svg" if hasattr(widget, "svg") else "value")
    move()
    assert app.board.storage_value != before, "the move did not change the kept copy"
    assert "shown" in changes, changes
    assert changes[0] == "kept", changes
