"""The board widget in plain pytest: Button-like API and the untrusted front end."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from mathgames.core.board_widget import MAX_MESSAGE_CHARS, BoardWidget
from mathgames.core.errors import InvalidMoveError

SVG = ('<svg viewBox="0 0 3 1"><rect data-cell="a1" width="1" height="1"/>'
       '<rect data-cell="b&amp;1" x="1" width="1" height="1"/><text>no cell</text></svg>')


def from_browser(board: BoardWidget, content: Any, buffers: list[bytes] | None = None) -> None:
    """Deliver a message exactly as the kernel's comm does for a browser message."""
    board._handle_msg({"content": {"data": {"method": "custom", "content": content}},
                       "buffers": buffers or []})


@pytest.fixture
def board() -> BoardWidget:
    return BoardWidget(svg=SVG)


@pytest.fixture
def events(board: BoardWidget) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    board.on_cell_click(lambda cell: seen.append(("click", cell)))
    board.on_key(lambda key: seen.append(("key", key)))
    board.on_stored(lambda text: seen.append(("stored", text)))
    return seen


def test_cell_ids_follow_the_svg(board: BoardWidget) -> None:
    assert board.cell_ids == {"a1", "b&1"}
    board.svg = '<svg><circle data-cell="z"/></svg>'
    assert board.cell_ids == {"z"}


def test_click_cell_and_press_key_call_handlers_in_order(
    board: BoardWidget, events: list[tuple[str, str]]
) -> None:
    board.click_cell("b&1")
    board.press_key("ArrowLeft")
    board.press_key("r")
    assert events == [("click", "b&1"), ("key", "ArrowLeft"), ("key", "r")]


def test_handlers_can_be_removed(board: BoardWidget) -> None:
    seen: list[str] = []
    board.on_cell_click(seen.append)
    board.on_cell_click(seen.append)  # registered once only
    board.click_cell("a1")
    board.on_cell_click(seen.append, remove=True)
    board.click_cell("a1")
    assert seen == ["a1"]


@pytest.mark.parametrize("cell", ["zz", "", 5, None])
def test_click_cell_from_python_refuses_unknown_cells(board: BoardWidget, cell: Any) -> None:
    with pytest.raises(InvalidMoveError, match="is not a cell of this board"):
        board.click_cell(cell)


@pytest.mark.parametrize("key", ["F5", "Tab", "ab", "", "ž", 3])
def test_press_key_refuses_keys_the_board_does_not_forward(board: BoardWidget, key: Any) -> None:
    with pytest.raises(InvalidMoveError):
        board.press_key(key)


def test_browser_messages_reach_the_handlers(board: BoardWidget,
                                             events: list[tuple[str, str]]) -> None:
    from_browser(board, {"type": "click", "cell": "a1"})
    from_browser(board, {"type": "key", "key": "Enter"})
    assert events == [("click", "a1"), ("key", "Enter")]
    assert board.rejected_messages == 0


FORGED = [
    {"type": "click", "cell": "nope"},
    {"type": "click", "cell": 7},
    {"type": "click", "cell": ["a1"]},
    {"type": "click", "cell": "a" * (MAX_MESSAGE_CHARS + 1)},
    {"type": "click"},
    {"type": "key", "key": "F12"},
    {"type": "key", "key": {"k": 1}},
    {"type": "stored", "key": "", "data": "x"},
    {"type": "explode"},
    {"type": 3},
    "click a1",
    ["click", "a1"],
    None,
    42,
]


@pytest.mark.parametrize("content", FORGED, ids=[repr(m)[:30] for m in FORGED])
def test_forged_messages_are_ignored_with_a_warning(
    board: BoardWidget, events: list[tuple[str, str]], content: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    svg_before = board.svg
    with caplog.at_level(logging.WARNING, logger="mathgames.board"):
        from_browser(board, content)
    assert events == []
    assert board.svg == svg_before
    assert board.rejected_messages == 1
    assert "ignored a message from the browser" in caplog.text


def test_a_forged_message_is_logged_cut_short(board: BoardWidget,
                                              caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mathgames.board"):
        from_browser(board, {"type": "click", "cell": "a" * 5000})
        from_browser(board, {"type": "key", "key": "b" * 5000})
    for letter in "ab":
        assert f"'{letter * 79}…'" in caplog.text and letter * 80 not in caplog.text


def test_binary_buffers_are_refused(board: BoardWidget, events: list[tuple[str, str]]) -> None:
    from_browser(board, {"type": "click", "cell": "a1"}, buffers=[b"\x00" * 10])
    assert events == [] and board.rejected_messages == 1


def test_forged_state_updates_cannot_redraw_the_board(board: BoardWidget) -> None:
    board._handle_msg({"content": {"data": {
        "method": "update", "state": {"svg": '<svg><rect data-cell="evil"/></svg>'},
        "buffer_paths": []}}, "buffers": []})
    assert board.svg == SVG
    assert "evil" not in board.cell_ids
    assert board.rejected_messages == 1


def test_a_failing_handler_does_not_raise_into_the_kernel(
    board: BoardWidget, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(cell: str) -> None:
        raise RuntimeError("bug in a game")

    board.on_cell_click(broken)
    with caplog.at_level(logging.ERROR, logger="mathgames.board"):
        from_browser(board, {"type": "click", "cell": "a1"})
    assert "a handler failed" in caplog.text


def test_a_kept_copy_is_offered_once_and_only_for_its_key(events: list[tuple[str, str]],
                                                          board: BoardWidget) -> None:
    board.storage_key = "demo"
    from_browser(board, {"type": "stored", "key": "other", "data": "{}"})
    assert events == []
    from_browser(board, {"type": "stored", "key": "demo", "data": '{"a": 1}'})
    from_browser(board, {"type": "stored", "key": "demo", "data": '{"a": 2}'})
    assert events == [("stored", '{"a": 1}')]
    assert board.rejected_messages == 1
