"""What the class-page tests share: pages opened and joined as a student's browser would,
and the live feeds run until the pages catch up (on the kernel's loop, see the ``in_thread``
fixture in ``conftest.py``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any

import mathgames.pages.live as live
from mathgames.matematiko.match import cell_name
from mathgames.pages.join import JoinPage
from mathgames.pages.table import TablePage
from mathgames.pages.teacher import TeacherPage


def opened_class() -> TeacherPage:
    """A teacher's page that has opened a new class."""
    teacher = TeacherPage()
    teacher.open_class()
    return teacher


def run_until(loop: asyncio.AbstractEventLoop, done: Callable[[], bool],
              timeout: float = 20) -> None:
    """Let the live feeds run until ``done()`` holds (fails after ``timeout`` s)."""
    end = loop.time() + timeout
    while not done():
        if loop.time() > end:
            raise AssertionError("the pages did not catch up")
        loop.run_until_complete(asyncio.sleep(0.05))


def join_as(teacher: TeacherPage, name: str) -> JoinPage:
    """A student's page that has joined the teacher's class as ``name``."""
    page = JoinPage(code=teacher.state.code)
    page.name_input.value = name
    page.join_button.click()
    return page


def open_table(game: str, name: str = "Ann", seats: int = 2, **page: Any) -> TablePage:
    """A table page that has opened a table of ``game`` with ``seats`` seats and sits
    ``name`` in its first seat (``page``: the page's own arguments)."""
    opener = TablePage(**page)
    opener.name_input.value = name
    opener.game_choice.value = game
    opener.seats_choice.value = seats
    opener.open_button.click()
    return opener


def join_table(code: str, name: str) -> TablePage:
    """A table page that has joined the table ``code`` as ``name``."""
    page = TablePage(table=code)
    page.name_input.value = name
    page.join_button.click()
    return page


def open_with_a_bot(game: str) -> TablePage:
    page = open_table(game)
    page.start_button.click()
    return page


def arrow_keys(topology: Any, start: str, goal: str) -> list[str]:
    """The arrow keys that take the keyboard's frame from ``start`` to ``goal``."""
    from mathgames.halma.view import ARROWS, arrow_table

    table, came = arrow_table(topology), {topology.index(start): (-1, "")}
    queue = deque([topology.index(start)])
    while queue:
        cell = queue.popleft()
        for key in ARROWS:
            nxt = table[(cell, key)]
            if nxt not in came:
                came[nxt] = (cell, key)
                queue.append(nxt)
    keys, cell = [], topology.index(goal)
    while came[cell][0] >= 0:
        cell, key = came[cell]
        keys.append(key)
    return keys[::-1]


def classroom_codes() -> set[str]:
    """The codes of every class and table in the kernel's store."""
    return {info.code for info in live.classroom().store.sessions()}


def key_enter(box: Any, helper: Any, held_back: str | None = None) -> None:
    """Enter in ``box`` as a browser sends it: the key at once, then the keystrokes it held
    back (``held_back``: the box's whole text by then), then the echo ``helper`` awaits."""
    box._handle_custom_msg({"event": "submit"}, [])
    if held_back is not None:
        box.value = held_back
    helper.answer_echo()


def finish_game(teacher: TeacherPage, students: list[JoinPage], last: list[JoinPage]) -> None:
    """Call the 25 numbers; every student places each (the 25th only the pages in ``last``)."""
    for k in range(25):
        teacher.call()
        for i, page in enumerate(students):
            page.state = page.room.refresh(page.state)
            if k < 24 or page in last:
                page.click(cell_name((k * 7 + i * 3) % 25))
