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
from mathgames.triomino.view import rack_id
from mathgames.triomino.widget import TriominoApp


def halma_move(app: HalmaApp) -> list[Any]:
    move = app.game.legal_moves()[0]
    app.board.click_cell(move.start)
    return [[app.board, app.move_list, app.status], lambda: app.board.click_cell(move.end)]


def matematiko_move(app: MatematikoApp) -> list[Any]:
    app.call_button.click()  # the first number
    return [[app.board, app.total, app.status], lambda: app.board.click_cell("c3")]


def triomino_move(app: TriominoApp) -> list[Any]:
    placement = app.game.legal_placements()[0]
    app.rack.click_cell(rack_id(placement.tile))
    while app.rotation != placement.rotation:
        app.rotate_button.click()
    return [[app.board, app.rack, app.status, app.sheet],
            lambda: app.board.click_cell(cell_id(placement.cell))]


def mosaic_move(app: MosaicApp) -> list[Any]:
    return [[app.board, app.status], lambda: app.board.click_cell("c4_4")]


def _started(make: Callable[[], Any]) -> Any:
    app = make()
    app.start_button.click()
    return app


APPS = {
    "halma": (lambda: _started(lambda: HalmaApp(board="star", seats=["human", "greedy"])),
              halma_move),
    "matematiko": (lambda: _started(MatematikoApp), matematiko_move),
    "triomino": (lambda: _started(lambda: TriominoApp(seed=3)), triomino_move),
    "mosaic": (MosaicApp, mosaic_move),
}


@pytest.mark.parametrize("name", list(APPS))
def test_the_kept_copy_changes_before_the_move_shows(name: str) -> None:
    make, prepare = APPS[name]
    app = make()
    shown, move = prepare(app)
    before = app.board.storage_value
    changes: list[str] = []
    app.board.observe(lambda change: changes.append("kept"), "storage_value")
    for i, widget in enumerate(shown):  # boards show an SVG, the rest HTML
        widget.observe(lambda change, i=i: changes.append(f"shown {i}"),
                       "svg" if hasattr(widget, "svg") else "value")
    move()
    assert app.board.storage_value != before, "the move did not change the kept copy"
    assert any(c.startswith("shown") for c in changes), changes
    assert changes[0] == "kept", changes
