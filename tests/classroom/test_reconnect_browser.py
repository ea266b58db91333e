"""Every page comes back by itself: a class mid-game through a network that drops, and a
server that is killed and started again (issue 64).

In Chromium, a teacher and two students play through a TCP relay the test cuts
(``tests/relay.py``, ``reconnect.py``): for 2 s and for 30 s (their kernels live on: the
pages reconnect without reloading), then the app's server is killed and started again on
the same SQLite folder (the kernels are gone: the pages reload themselves and come back as
they were). In a school (PostgreSQL, HAProxy, two app servers: ``school.py``) the server
of the teacher's page is killed: its pages reload on the other. Nobody reloads a page;
each time the pages said "Connection lost" while cut, and afterwards the teacher calls a
number that both students see and place. The server's logs hold no traceback. At the
protocol level, 30 students' pages from one address lose their connections at once and come
back: all served, none "busy", none taken for a flood.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.classroom.reconnect import CutClass, class_comes_back, reconnect_all
from tests.conftest import ARTIFACTS, NOTEBOOKS, Server
from tests.kernel_loop import in_own_loop as run

pytestmark = [pytest.mark.slow]


@pytest.fixture
def cut_class(browser: Any, tmp_path: Path) -> Iterator[CutClass]:
    made = CutClass(browser, tmp_path, ARTIFACTS / "reconnect-server.log")
    try:
        yield made
    finally:
        made.close()


@pytest.mark.browser
def test_a_class_comes_back_by_itself_after_outages_and_a_restart(cut_class: CutClass) -> None:
    cut_class.play_a_number()
    cut_class.mark_pages()
    for seconds in (2, 30):  # the kernels live on: the pages reconnect, nothing reloads
        usable = cut_class.outage(seconds)
        assert cut_class.reloaded() == [False, False, False], seconds
        cut_class.play_a_number()
        print(f"outage {seconds} s: usable after {usable}")
    usable = cut_class.restart()  # the kernels are gone: every page reloads by itself
    assert cut_class.reloaded() == [True, True, True]
    print(f"restart: usable after {usable}")
    for student in cut_class.students:  # the grid came back with the page
        assert student.locator(".mathgames-board .mg-number").count() == 3
    cut_class.play_a_number()
    logs = cut_class.server_logs()
    assert "Traceback" not in logs and "Uncaught exception" not in logs
    assert "floods the server" not in logs and "no room" not in logs
    for page in cut_class.pages:
        assert page.mg_errors == []


@pytest.mark.browser
def test_in_a_school_the_pages_of_a_killed_server_come_back_on_the_other(
        browser: Any, tmp_path: Path) -> None:
    from tests.classroom.school import School, haproxy_path

    if haproxy_path() is None:
        pytest.skip("HAProxy is not installed (make haproxy)")
    school = School(logs=ARTIFACTS)
    made = None
    try:
        made = CutClass(browser, tmp_path, ARTIFACTS / "reconnect-school.log", school=school)
        made.play_a_number()
        made.mark_pages()
        on_it, usable = made.kill_teachers_server()
        assert made.reloaded() == on_it  # the others never noticed
        print(f"school, server killed: pages on it {on_it}, usable after {usable}")
        made.play_a_number()
        held = {made.server_of(page) for page in made.pages}
        assert len(held) == 1  # all on the server left
        assert all(page.mg_errors == [] for page in made.pages)
    finally:
        if made is not None:
            made.close()
        school.stop()


def test_thirty_pages_come_back_at_once(tmp_path: Path) -> None:
    """30 students from one address: their connections drop and come back to their kernels;
    then the server restarts and their 30 pages reload at once."""
    log = ARTIFACTS / "reconnect-thirty.log"
    env = {"MATHGAMES_STORE": f"sqlite:///{tmp_path / 'classroom.sqlite3'}"}
    server = Server(NOTEBOOKS, log, env=env)
    try:
        server.wait_ready()
        before, again, server = run(class_comes_back(
            server, 30, log.with_name("reconnect-thirty-2.log"), env))
        assert [(p.status, p.error) for p, _ in before] == [(200, "")] * 30
        assert [p.error for p, answered in before if answered is None] == []
        assert [(p.status, p.error) for p in again] == [(200, "")] * 30
        assert all(p.widget_count > 0 for p in again)
        gone = before[0][0]  # a page of the killed server asks for its kernel: 404, quietly
        assert run(reconnect_all([gone])) == [None] and "404" in gone.error, gone.error
        print(f"30 reconnected in at most {max(t for _, t in before):.1f} s; 30 reloads "
              f"usable in at most {max(p.usable_seconds for p in again):.1f} s")
        logs = log.read_text() + server.log.read_text()
        assert "floods the server" not in logs and "no room" not in logs
        assert "Traceback" not in logs
    finally:
        server.stop()
