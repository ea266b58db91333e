"""A school's server end to end: two app servers over one PostgreSQL behind HAProxy.

Everything real and on loopback: a throwaway PostgreSQL, two app servers (the ``make app``
command) whose kernels share it, and Debian's haproxy started with ``deploy/haproxy.cfg``
(sticky cookie, websockets). A teacher and students open their pages through the proxy
at the protocol level, as browsers would (``school.py``), and play whole class games:
undisturbed, with the database restarted after the 15th number, and with the teacher's
app server killed after the 10th.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from school import ClassGame, School, haproxy_path

from tests.conftest import ARTIFACTS
from tests.kernel_loop import in_own_loop

pytestmark = [pytest.mark.slow]

STUDENTS = 6


@pytest.fixture(scope="module")
def school() -> Iterator[School]:
    if haproxy_path() is None:
        pytest.fail("HAProxy is not installed: run .ci/ensure-haproxy (apt-get install haproxy)")
    started = School(logs=ARTIFACTS)
    try:
        yield started
    finally:
        started.stop()


async def spread_class(school: School) -> ClassGame:
    """A class whose students are on both app servers, and the teacher on one."""
    game = ClassGame(school.url, STUDENTS)
    await game.open()
    servers = {student.page.server for student in game.students}
    assert servers == {"app1", "app2"}, servers
    return game


def test_a_class_split_over_two_servers_plays_a_whole_game(school: School) -> None:
    """... and the proxy restarts after the 5th number: every page's websocket drops, the
    pages connect again to their kernels (still running, on the same servers: the sticky
    cookie) and the game goes on."""
    async def body() -> None:
        game = await spread_class(school)
        assert game.teacher is not None
        pages = [game.teacher.page, *(s.page for s in game.students)]
        try:
            for k in range(25):
                await game.call()
                if k == 4:
                    servers = [page.server for page in pages]
                    school.stop_proxy()
                    for page in pages:
                        await page.until(lambda page=page: page.closed, "the lost connection")
                    school.start_proxy()
                    await asyncio.gather(*(page.reconnect() for page in pages))
                    assert [page.server for page in pages] == servers
                    assert all(s.status() is not None for s in game.students)
            assert all(s.status() == (25, 25) for s in game.students)
            await game.check_csv()
        finally:
            await game.close()

    in_own_loop(body())


def test_the_database_restarts_after_the_15th_number(school: School) -> None:
    async def body() -> None:
        game = await spread_class(school)
        teacher = game.teacher
        assert teacher is not None
        try:
            for _k in range(15):
                await game.call()
            # the 16th number is called; the database stops before anyone places it
            await game.call_only()
            school.pg.halt()
            late = game.students[0]
            await late.place()  # refused with a clear message: nothing placed
            await late.page.until(lambda: "not answering: try again" in late.message(),
                                  "the student's 'try again'")
            assert late.status() == (15, 16)
            await teacher.press_call()  # refused too: nothing called
            await teacher.page.until(lambda: "not answering: try again" in teacher.message(),
                                     "the teacher's 'try again'")
            assert teacher.progress()[0] == 16
            school.pg.start()
            # everyone places the 16th; the student who was refused places it again
            await asyncio.gather(*(game.place(s, 15) for s in game.students))
            await teacher.page.until(lambda: teacher.progress() == (16, 0),
                                     "every placement of the 16th number")
            for _k in range(16, 25):
                await game.call()
            await game.check_csv()
        finally:
            if school.pg.process.poll() is not None:
                school.pg.start()
            await game.close()

    in_own_loop(body())


def test_a_server_killed_after_the_10th_number(school: School) -> None:
    """The teacher's app server dies: every page on it loses its kernel, reloads through
    the proxy, lands on the other server and resumes from the store."""
    async def body() -> None:
        game = await spread_class(school)
        teacher = game.teacher
        assert teacher is not None
        dead = teacher.page.server
        alive = {"app1": "app2", "app2": "app1"}[dead]
        try:
            for _k in range(10):
                await game.call()
            orphans = [s for s in game.students if s.page.server == dead]
            assert orphans and len(orphans) < STUDENTS
            school.kill_app(int(dead[-1]) - 1)
            for page in [teacher.page, *(s.page for s in orphans)]:
                await page.until(lambda page=page: page.closed, "the lost connection")
            await teacher.reload(school.url)
            await asyncio.gather(*(s.reload(school.url) for s in orphans))
            assert teacher.page.server == alive
            assert {s.page.server for s in game.students} == {alive}
            assert all(s.status() == (10, 10) for s in game.students)
            assert teacher.progress() == (10, 0) and len(teacher.students()) == STUDENTS
            for _k in range(10, 25):
                await game.call()
            await game.check_csv()
        finally:
            await game.close()
            if school.apps[int(dead[-1]) - 1].process.poll() is not None:
                school.start_app(int(dead[-1]) - 1)

    in_own_loop(body())
