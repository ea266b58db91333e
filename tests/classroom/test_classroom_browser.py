"""End to end in Chromium: a class game, a table with a bot, and a forged pass.

A Voila server of its own (the ``make app`` command) with its store in a
temporary SQLite file (``MATHGAMES_STORE``), so that the test can also read the
log that the pages' kernels write. Every page has its own browser context: its
own local storage, as on the students' own devices.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
import zxingcpp
from PIL import Image

from mathgames.classroom.service import Classroom
from mathgames.classroom.store import open_store
from mathgames.classroom.table_state import TABLE_GAMES
from mathgames.halma.bots import GreedyBot
from mathgames.matematiko.match import cell_name
from tests.conftest import ARTIFACTS, NOTEBOOKS, ROOT, Server, collect_errors, wait_rendered
from tests.page_checks import (
    BACK_ROW_PX,
    FIELDS_APART_JS,
    MIN_CELL_PX,
    MIN_TEXT_PX,
    OVERLAP_JS,
    PAGE_CUT_JS,
    PHONE,
    PROJECTOR,
    SMALL_TEXT_JS,
    SMALLEST_JS,
    axe_violations,
    check_inside,
    english_left,
    smallest_text,
    wait_layout,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TIMEOUT = 90_000
SHOTS = ARTIFACTS / "screenshots"
DOCS = ROOT / "docs" / "screenshots"


def serve_a_class(tmp_path_factory: pytest.TempPathFactory, fork_kernels: bool = True,
                  ) -> Iterator[tuple[str, str]]:
    """A server whose kernels share a fresh SQLite store: (address, store URL); its pages'
    kernels forked (Linux) or, with ``fork_kernels=False``, plain (as on macOS, Windows)."""
    folder = tmp_path_factory.mktemp("classroom")
    served = folder / "notebooks"
    shutil.copytree(NOTEBOOKS, served)
    store_url = f"sqlite:///{folder / 'classroom.sqlite3'}"
    kept = os.environ.get("MATHGAMES_STORE")
    os.environ["MATHGAMES_STORE"] = store_url
    log = "classroom-server.log" if fork_kernels else "classroom-server-plain.log"
    try:
        server = Server(served, ARTIFACTS / log, fork_kernels=fork_kernels)
    finally:
        if kept is None:
            del os.environ["MATHGAMES_STORE"]
        else:
            os.environ["MATHGAMES_STORE"] = kept
    try:
        server.wait_ready()
        yield server.url, store_url
    finally:
        server.stop()


@pytest.fixture(scope="module")
def classroom_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A class server with forked kernels: (address, store URL)."""
    yield from serve_a_class(tmp_path_factory)


@pytest.fixture(scope="module")
def plain_classroom_server(tmp_path_factory: pytest.TempPathFactory,
                           ) -> Iterator[tuple[str, str]]:
    """A class server with plain kernels (``--no-fork``, as on macOS and Windows)."""
    yield from serve_a_class(tmp_path_factory, fork_kernels=False)


@pytest.fixture(params=["forked", "plain"])
def either_classroom_server(request: pytest.FixtureRequest) -> tuple[str, str]:
    """The class server with forked kernels, then the one with plain kernels."""
    return request.getfixturevalue(
        "classroom_server" if request.param == "forked" else "plain_classroom_server")


@pytest.fixture
def device(browser: Any) -> Iterator[Any]:
    """``device()`` opens a page in a browser context of its own (its own local storage)."""
    contexts = []

    def open_device(phone: bool = False) -> Any:
        """A laptop's page, or with ``phone`` a phone's: its size, a touch screen, no mouse."""
        context = (browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
                   if phone else browser.new_context(viewport={"width": 1280, "height": 900}))
        context.set_default_timeout(TIMEOUT)
        contexts.append(context)
        page = collect_errors(context.new_page())
        page.mg_touch = phone
        return page

    yield open_device
    for context in contexts:
        context.close()


def open_page(page: Any, base: str, notebook: str, query: str, wait_for: str,
              lang: str = "en") -> Any:
    page.goto(f"{base}/voila/render/{notebook}?lang={lang}{query}", wait_until="domcontentloaded")
    wait_rendered(page, wait_for)
    return page


def keep_screenshot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))  # a page (its viewport) or one element
    if os.environ.get("MATHGAMES_UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(SHOTS / name, DOCS / name)


def join_class(page: Any, base: str, code: str, name: str, by_enter: bool = False) -> None:
    open_page(page, base, "join.ipynb", f"&code={code}", ".mg-join-button")
    submit_join(page, name, by_enter)


def submit_join(page: Any, name: str, by_enter: bool = False) -> None:
    """On the join page: type ``name`` and join the class whose code the page holds, by
    the Join button or (``by_enter``) typed key by key at full speed and then Enter: the
    browser holds the last keys back while the kernel answers the first, and sends Enter
    at once, so the page must wait for them before it joins."""
    box = page.locator(".mg-join-form input").nth(1)
    if by_enter:
        box.press_sequentially(name)
        box.press("Enter")
    else:
        box.fill(name)
        press(page, page.locator(".mg-join-button"))
    page.wait_for_selector(".mg-join-line", state="visible")


def press(page: Any, locator: Any) -> None:
    """Tap on a phone, click elsewhere."""
    if getattr(page, "mg_touch", False):
        locator.tap()
    else:
        locator.click()


def read_qr(element: Any) -> list[str]:
    """The texts of the QR codes a camera would read in a screenshot of ``element``."""
    shot = Image.open(io.BytesIO(element.screenshot()))
    return [found.text for found in zxingcpp.read_barcodes(shot)
            if found.format == zxingcpp.BarcodeFormat.QRCode]


def status(page: Any) -> tuple[int, int]:
    line = page.locator(".mg-join-line")
    return int(line.get_attribute("data-placed")), int(line.get_attribute("data-called"))


def wait_status(page: Any, placed: int, called: int) -> None:
    page.wait_for_selector(f'.mg-join-line[data-placed="{placed}"][data-called="{called}"]')


def check_places(teacher: Any, students: list[Any], names: list[str]) -> None:
    """Once the teacher's ranking shows, every student's page says the same place."""
    teacher.wait_for_selector(".mg-ranking .mg-rank")
    rows = teacher.locator(".mg-ranking tr:has(td)")
    ranking = {rows.nth(i).locator("td").nth(1).text_content():
               rows.nth(i).locator("td").nth(0).text_content() for i in range(rows.count())}
    assert sorted(ranking) == sorted(names)
    for page, name in zip(students, names, strict=True):
        page.wait_for_selector(f'.mg-join-line[data-rank="{ranking[name]}"]')
        assert "Game over" in page.locator(".mg-join-line").text_content()


def test_a_whole_class_game_with_a_reload(classroom_server: tuple[str, str], device: Any) -> None:
    base, store_url = classroom_server
    teacher = open_page(device(), base, "teacher.ipynb", "", ".mg-open-class")
    teacher.locator(".mg-open-class").click()
    teacher.wait_for_selector(".mg-class-code", state="visible")
    code = teacher.locator(".mg-class-code").get_attribute("data-code")
    href = teacher.locator(".mg-address a").get_attribute("href")
    assert f"code={code}" in href
    # the QR code as the page draws it (240 px) reads as the whole address
    assert read_qr(teacher.locator(".mg-class-top svg.mg-qr")) == [href]
    names = ["Ann", "Benedikt", "Cy", "Dora"]
    students = [device(phone=name == "Cy") for name in names]  # Cy taps on a phone
    for page, name in zip(students, names, strict=True):  # Benedikt types, and Enter
        join_class(page, base, code, name, by_enter=name == "Benedikt")
    teacher.wait_for_function("() => document.querySelectorAll('.mg-students li').length === 4")
    # four names, four columns: each name at the same height as the others
    tops = teacher.eval_on_selector_all(
        ".mg-students li", "items => items.map(li => li.getBoundingClientRect().top)")
    assert max(tops) - min(tops) < 1, tops
    for k in range(25):
        if k == 2:  # a card from a real deck: typed key by key, then Enter
            card = teacher.locator(".mg-typed-card input")
            card.press_sequentially("12")
            card.press("Enter")
            teacher.wait_for_selector('.mg-call-progress p[data-called="3"]')
            assert teacher.locator(".mg-called-now").inner_text() == "12"
            teacher.wait_for_function(  # emptied for the next card
                "() => document.querySelector('.mg-typed-card input').value === ''")
        else:
            teacher.locator(".mg-call-button").click()
        if k == 0:  # the code and its QR code step back for the calling, and still read
            teacher.wait_for_selector(".mg-calling svg.mg-qr")
            teacher.wait_for_function(
                "() => document.querySelector('.mg-qr').getBoundingClientRect().width < 200")
            assert read_qr(teacher.locator(".mg-class-top svg.mg-qr")) == [href]
        for i, page in enumerate(students):
            wait_status(page, k, k + 1)
            if k == 0 and i == 0:  # Ann places the first number by keyboard: c3 to a1
                page.locator(".mathgames-board").focus()
                for key in ("ArrowUp", "ArrowUp", "ArrowLeft", "ArrowLeft", "Enter"):
                    page.keyboard.press(key)
                page.wait_for_selector('.mathgames-board .mg-number[data-for="a1"]')
            else:
                if k == 1 and i == 2:  # Cy taps a wrong cell on the phone, and takes it back
                    press(page, page.locator('.mathgames-board [data-cell="e5"]'))
                    wait_status(page, k + 1, k + 1)
                    press(page, page.locator(".mg-undo:not([disabled])"))
                    wait_status(page, k, k + 1)
                    assert page.locator(".mathgames-board .mg-number").count() == k
                    page.wait_for_selector(".mg-undo[disabled]", state="attached")
                press(page, page.locator(
                    f'.mathgames-board [data-cell="{cell_name((k * 7 + i) % 25)}"]'))
            wait_status(page, k + 1, k + 1)
        teacher.wait_for_selector(f'.mg-call-progress p[data-called="{k + 1}"][data-waiting="0"]',
                                  state="attached")  # after the 25th: the ranking instead
        if k == 11:
            keep_screenshot(teacher, "classroom_teacher.png")
            keep_screenshot(students[0], "classroom_student.png")
            students[1].reload(wait_until="domcontentloaded")  # Benedikt rejoins with his grid
            wait_rendered(students[1], ".mg-join-line")
            wait_status(students[1], 12, 12)
            assert students[1].locator(".mathgames-board .mg-number").count() == 12
    check_places(teacher, students, names)
    assert teacher.locator(".mg-ranking .mg-rank").count() == 4
    teacher.wait_for_selector(".mg-class-chart", state="visible")
    assert teacher.locator(".mg-csv-link").get_attribute("href").startswith("data:text/csv")
    for page in students:
        page.wait_for_selector('.mg-join-line:has-text("Game over")')
    # a window as tall as the results: a taller element is cut off in its screenshot
    teacher.set_viewport_size({"width": 1280, "height": 1900})
    teacher.wait_for_timeout(1000)  # let the charts draw
    keep_screenshot(teacher.locator(".mg-class-results"), "classroom_results.png")
    # the teacher shows the third's grid up close: as large as a student's own on the projector
    teacher.set_viewport_size(PROJECTOR)
    third = teacher.locator(".mg-ranking td:nth-child(2)").nth(2).text_content()
    teacher.locator(".mg-closeup-pick select").select_option(index=2)
    teacher.wait_for_function(
        "name => document.querySelector('.mg-closeup svg')?.textContent.includes(name)", arg=third)
    assert teacher.locator(".mg-closeup svg").bounding_box()["width"] >= 600
    assert teacher.locator(".mg-closeup .mg-number").count() == 25
    assert axe_violations(teacher) == []
    # what the pages showed is what the log says
    store = open_store(store_url)
    try:
        state = Classroom(store).load_class(code)
    finally:
        store.close()
    assert state.is_over and sorted(s.name for s in state.students.values()) == names
    ranks = [int(teacher.locator(".mg-ranking .mg-points").nth(i).text_content())
             for i in range(4)]
    assert ranks == [s.points for s in state.standings()]
    # the next game for the same class: every student's grid empties, nobody rejoins
    teacher.locator(".mg-again").click()
    teacher.locator(".mg-again-confirm .mg-confirm-yes").click()
    teacher.wait_for_selector('.mg-call-progress p[data-called="0"]', state="attached")
    assert "2" in teacher.locator(".mg-call-progress").text_content()
    for page in students:
        wait_status(page, 0, 0)
        page.wait_for_selector(".mg-join-message [role=status]")
        assert page.locator(".mathgames-board .mg-number").count() == 0
    # the second game: its first number by a double-click, which calls one number; then
    # a card typed from a real deck comes second
    teacher.locator(".mg-call-button").dblclick()
    teacher.wait_for_selector('.mg-call-progress p[data-called="1"]')
    card = teacher.locator(".mg-typed-card input")
    card.fill("5")
    card.press("Enter")
    teacher.wait_for_selector('.mg-call-progress p[data-called="2"]')
    assert teacher.locator(".mg-called-now").inner_text() == "5"
    for k in range(25):  # each number placed by the students in turn, the last in reverse
        if k >= 2:
            teacher.locator(".mg-call-button").click()
        called = max(k + 1, 2)
        for page in students if k < 24 else students[::-1]:
            i = students.index(page)
            wait_status(page, k, called)
            press(page, page.locator(
                f'.mathgames-board [data-cell="{cell_name((k * 11 + i * 2) % 25)}"]'))
            wait_status(page, k + 1, called)
    check_places(teacher, students, names)
    assert "Total of 2 games" in teacher.locator(".mg-ranking-box").text_content()
    # the lesson is over, the results downloaded: the teacher deletes the class (asked first)
    teacher.locator(".mg-delete-class").click()
    teacher.locator(".mg-delete-confirm .mg-confirm-yes").click()
    teacher.wait_for_selector(f'.mg-teacher-notice [role=status]:has-text("{code}")')
    teacher.wait_for_selector(".mg-class-code", state="hidden")
    for page in students:  # every student's page says so, and offers the form again
        page.wait_for_selector('.mg-join-message [role=alert]:has-text("deleted the class")')
        page.wait_for_selector(".mg-join-form", state="visible")
    store = open_store(store_url)
    try:
        assert store.sessions() == []  # no name is left
    finally:
        store.close()
    # a reload of either page finds nothing kept: the browsers forgot the passes
    teacher.reload(wait_until="domcontentloaded")
    wait_rendered(teacher, ".mg-open-class")
    students[0].reload(wait_until="domcontentloaded")
    wait_rendered(students[0], ".mg-join-form")
    teacher.wait_for_timeout(1000)  # time for a kept pass, if any, to come back
    assert teacher.locator(".mg-class-code").is_hidden()
    assert teacher.locator(".mg-teacher-notice [role=alert]").count() == 0
    assert students[0].locator(".mg-join-message [role=alert]").count() == 0
    for page in (teacher, *students):
        assert page.mg_errors == []


# A short race: Ann's target camp is full but for one hole, her last piece three rows away.
SHORT_STAR = {"0": ["a17", "a16", "b16", "a15", "b15", "c15", "a14", "b14", "c14", "e11"],
              "1": ["h8"], "2": ["e8"]}


def wait_for_ply(page: Any, ply: int) -> None:
    """Wait until ``page`` shows its table at ``ply`` or later. A bot moves 0.4 s after its
    turn comes, so on a busy machine a page may already show the bot's move when the test
    looks for the move before it."""
    page.wait_for_function(
        "ply => { const line = document.querySelector('.mg-table-line');"
        " return line !== null && line.getClientRects().length > 0"
        " && Number(line.dataset.ply) >= ply; }", arg=ply)


def test_two_students_play_chinese_checkers_with_a_bot(classroom_server: tuple[str, str],
                                                       device: Any) -> None:
    base, store_url = classroom_server
    store = open_store(store_url)
    room = Classroom(store)
    code = room.open_table("star", 3, placement=SHORT_STAR, move_limit=80)
    players = [device(), device()]
    for page, name in zip(players, ["Ann", "Benedikt"], strict=True):
        open_page(page, base, "table.ipynb", f"&table={code}", ".mg-join-table")
        if name == "Ann":
            page.locator(".mg-table-form input").first.fill(name)
            page.locator(".mg-join-table").click()
        else:  # the table's code is in the address: Enter after the name sits down
            page.locator(".mg-table-form input").first.press_sequentially(name)
            page.locator(".mg-table-form input").first.press("Enter")
        page.wait_for_selector(".mg-table-line", state="visible")
    players[0].locator(".mg-start-table").click()
    try:
        for _turn in range(200):
            state = room.load_table(code)
            for page in players:  # every device shows the move (or the bot's after it)
                wait_for_ply(page, state.ply)
            if state.is_over:
                break
            if state.is_bot(state.to_move):
                wait_for_ply(players[0], state.ply + 1)
                continue
            page = players[state.to_move]
            move = GreedyBot(seed=state.ply).choose(state.game)
            page.locator(f'.mathgames-board [data-cell="{move.start}"]').click()
            page.locator(f'.mathgames-board [data-cell="{move.end}"]').click()
            wait_for_ply(page, state.ply + 1)
        final = room.load_table(code)
    finally:
        store.close()
    assert final.is_over and final.is_bot(2)
    assert len(final.moves) >= 3  # the bot in seat 3 moved too
    for page in players:
        page.wait_for_selector('.mg-table-line[data-over="1"]:has-text("Game over")')
        assert page.mg_errors == []
    # Ann asks for another game: both pages move to the new table, each in their seat
    players[0].locator(".mg-table-again").click()
    store = open_store(store_url)
    try:
        for _ in range(100):
            new = Classroom(store).load_table(code).next_table
            if new:
                break
            players[0].wait_for_timeout(100)
    finally:
        store.close()
    assert new and new != code
    for page, name in zip(players, ["Ann", "Benedikt"], strict=True):
        page.wait_for_selector(f'.mg-table-code:text-is("{new}")')
        page.wait_for_selector(f'.mg-table-info li:has-text("{name} (you)")')
        # the seat list and the buttons come in separate messages: wait for both
        page.locator(".mg-start-table").wait_for(state="visible")
        assert page.mg_errors == []


def test_a_forged_pass_from_a_page_script_is_refused(either_classroom_server: tuple[str, str],
                                                    device: Any) -> None:
    """A student joins a class (the page's kernel writes to the class's store) and a forged
    pass is refused: with forked kernels and with plain ones."""
    base, store_url = either_classroom_server
    store = open_store(store_url)
    room = Classroom(store)
    code, teacher_token = room.open_class(seed=9)
    victim, _victim_token = room.join_class(code, "Vera")
    room.call(code, teacher_token)
    page = device()
    join_class(page, base, code, "Mallory")
    # A script on the page swaps in the victim's id with a made-up token, then reloads.
    page.evaluate("""([code, pid]) => localStorage.setItem('mathgames:classroom-class',
        JSON.stringify({code: code, pid: pid, token: 'made-up'}))""", [code, victim])
    page.reload(wait_until="domcontentloaded")
    wait_rendered(page, ".mg-join-message [role=alert]")
    assert "not valid" in page.locator(".mg-join-message").text_content()
    assert page.locator(".mathgames-board .mg-number").count() == 0
    try:
        state = room.load_class(code)
    finally:
        store.close()
    assert state.students[victim].cells == []  # nothing was placed for Vera
    assert "Mallory" in {s.name for s in state.students.values()}
    # a pass damaged in the browser, on a Russian page: a Russian sentence that says what
    # to do, never a parser's words
    russian = device()
    open_page(russian, base, "join.ipynb", "", ".mg-join-button", "ru")
    for kept in ("not JSON", "[1, 2, 3]"):
        russian.evaluate("kept => localStorage.setItem('mathgames:classroom-class', kept)", kept)
        russian.reload(wait_until="domcontentloaded")
        wait_rendered(russian, ".mg-join-message [role=alert]")
        said = russian.locator(".mg-join-message").text_content().strip()
        assert said.startswith("Пропуск в класс на этом устройстве повреждён: войдите снова"), said
        assert english_left(russian, "ru") == []
    assert page.mg_errors == [] and russian.mg_errors == []


#: How far the page reaches beyond the window's width (a phone would scroll sideways).
SIDEWAYS_JS = "() => document.documentElement.scrollWidth - window.innerWidth"


def page_problems(page: Any, lang: str, where: str) -> list[str]:
    """What is wrong with a classroom page as it is now: cut labels, a form's fields
    not lined up, controls drawn over one another, sideways scrolling, English in another
    language, axe-core's serious findings."""
    wait_layout(page)
    problems = [f"{where}: cut {t}" for t in page.evaluate(PAGE_CUT_JS)]
    problems += [f"{where}: overlap {t}"
                 for t in page.evaluate(OVERLAP_JS, ".jp-OutputArea-output")]
    problems += [f"{where}: fields apart {t}" for t in page.evaluate(FIELDS_APART_JS)]
    if (sideways := page.evaluate(SIDEWAYS_JS)) > 0.5:
        problems.append(f"{where}: {sideways} px wider than the window")
    if lang != "en":
        problems += [f"{where}: English text {t!r}" for t in english_left(page, lang)]
    problems += [f"{where}: axe {v}" for v in axe_violations(page)]
    return problems


def open_table_with_a_bot(page: Any, game: str) -> None:
    """On the table page's form: open a table of ``game`` and start it, a bot in the
    other seat."""
    page.locator(".mg-table-form input").first.fill("Zuzana")
    page.locator(".mg-table-form select").first.select_option(
        index=list(TABLE_GAMES).index(game))
    page.locator(".mg-open-table").click()
    page.locator(".mg-start-table").click()
    # started: the Start button gone (a Triomino rack shows its tiles before the start, and
    # Polish "Start: boty ..." would read as English "Start" while it is still there)
    page.wait_for_selector(".mg-start-table", state="hidden")
    page.wait_for_selector(".mg-table-line", state="visible")
    page.wait_for_selector(".mg-table-main .mathgames-board [data-cell]")  # squares or tiles


@pytest.mark.parametrize("game", ["halma", "triomino"])
def test_a_table_fits_a_projector_and_a_phone(classroom_server: tuple[str, str], device: Any,
                                              game: str) -> None:
    base, _store_url = classroom_server
    page = device()
    page.set_viewport_size(PROJECTOR)
    open_page(page, base, "table.ipynb", "", ".mg-join-table")
    open_table_with_a_bot(page, game)
    board = ".mg-table-board .mathgames-board"
    wait_layout(page)
    # on a projector: the whole board, Leave the table below it, and a Triomino player's
    # tiles and buttons, on screen
    on_screen = [board, ".mg-table-line", ".mg-table-leave"]
    if game == "triomino":
        on_screen += [".mg-triomino-rack .mathgames-board", ".mg-table-turn", ".mg-table-draw"]
    check_inside(page, on_screen, f"{game} table, projector")
    # asked before leaving during the game: the question and its answers on screen too
    page.locator(".mg-table-leave").click()
    page.wait_for_selector(".mg-table-leave-confirm .mg-confirm-yes", state="visible")
    wait_layout(page)
    check_inside(page, [board, ".mg-table-leave-confirm .mg-confirm-yes",
                        ".mg-table-leave-confirm .mg-confirm-no"], f"{game} table, leaving")
    page.locator(".mg-table-leave-confirm .mg-confirm-no").click()
    page.wait_for_selector(".mg-table-leave-confirm", state="hidden")
    # on a phone: squares and tiles big enough for a finger (Halma's with one zoom)
    page.set_viewport_size(PHONE)
    wait_layout(page)
    keep_screenshot(page, f"classroom_table_{game}_phone.png")
    if game == "halma":  # on a phone: the whole board and whose turn it is, unscrolled
        check_inside(page, [board, ".mg-table-line"], f"{game} table, phone")
    problems = page_problems(page, "en", f"{game} table, phone")
    if game == "halma":
        page.locator(".mg-zoom-in").click()
        page.wait_for_selector(board + ".mg-zoomed")
        wait_layout(page)
        smallest = page.evaluate(SMALLEST_JS, ".mg-table-board .mathgames-board")
    else:
        smallest = page.evaluate(SMALLEST_JS, ".mg-triomino-rack .mathgames-board")
    assert smallest is not None and smallest >= MIN_CELL_PX, f"{game}: cells of {smallest} px"
    assert problems == [], "\n".join(problems)
    assert page.mg_errors == []


def teacher_pass(teacher: Any) -> tuple[str, str]:
    """The class code and the teacher's token, as the teacher's browser keeps them."""
    kept = json.loads(teacher.evaluate(
        "() => localStorage.getItem('mathgames:classroom-teacher')"))
    return kept["code"], kept["token"]


#: The teacher's controls as laid out: [class, top, bottom] of each shown one, in order.
CONTROLS_JS = """() => [...document.querySelector('.mg-teacher-controls').children]
    .map(c => [c.className, c.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0).map(([name, r]) => [name, r.top, r.bottom])"""
#: Where a text wraps: "x|y" for each pair of characters on either side of a line break.
LINE_BREAKS_JS = """selector => {
    const chars = [], walker = document.createTreeWalker(
        document.querySelector(selector), NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = range.getClientRects()[0];
            if (box) chars.push([node.data[i], box.top]);
        }
    }
    return chars.slice(1).flatMap(([ch, top], i) =>  // chars[i]: the character before
        top > chars[i][1] + 2 ? [chars[i][0] + "|" + ch] : []);
}"""


def check_one_row(teacher: Any, where: str) -> None:
    """The teacher's controls in one row (the README's promise), each label on one line."""
    shown = teacher.evaluate(CONTROLS_JS)
    middles = [(top + bottom) / 2 for _name, top, bottom in shown]
    assert max(middles) - min(middles) < 3, f"{where}: the controls take two rows: {shown}"
    buttons = [bottom - top for name, top, bottom in shown if "widget-button" in name]
    assert max(buttons) - min(buttons) < 2, f"{where}: a button's label wraps: {shown}"


def check_address_breaks(teacher: Any, where: str) -> None:
    """The join address wraps only after a '/', '?' or '&', never inside a word."""
    breaks = teacher.evaluate(LINE_BREAKS_JS, ".mg-address a")
    assert all(pair[0] in "/?&" for pair in breaks), f"{where}: the address breaks {breaks}"


@pytest.mark.parametrize("lang", ["en", "pl", "cs", "ru"])
def test_each_stage_of_a_class_on_the_projector_and_the_phones(
        classroom_server: tuple[str, str], device: Any, lang: str) -> None:
    """At 1280x720, what the class must read at each stage (joining, calling, results) is on
    the screen without scrolling, its text at least BACK_ROW_PX; a click does not scroll.
    On the way, the same class on a student's phone (the join form, then the grid), the
    teacher's page on the projector and on a phone, and a Triomino table played on a phone
    and watched on the projector: no label cut, nothing drawn over another, nothing wider
    than the window, no English left in another language, no serious axe finding."""
    base, store_url = classroom_server
    teacher = device()
    teacher.set_viewport_size(PROJECTOR)
    open_page(teacher, base, "teacher.ipynb", "", ".mg-open-class", lang)
    teacher.locator(".mg-open-class").click()
    teacher.wait_for_selector(".mg-class-code", state="visible")
    code, token = teacher_pass(teacher)
    student = device()
    student.set_viewport_size(PHONE)
    open_page(student, base, "join.ipynb", f"&code={code}", ".mg-join-button", lang)
    problems = page_problems(student, lang, "join form, phone")
    submit_join(student, "Zuzana")
    kept = json.loads(student.evaluate("() => localStorage.getItem('mathgames:classroom-class')"))
    store = open_store(store_url)
    room = Classroom(store)
    sizes: dict[str, float | None] = {}

    def stage(name: str, readable: list[str], shown: list[str]) -> None:
        wait_layout(teacher)
        keep_screenshot(teacher, f"classroom_projector_{name}_{lang}.png")
        assert teacher.evaluate("() => window.scrollY") == 0, f"{name}: the page scrolled"
        check_inside(teacher, readable + shown, f"{lang}, {name}")
        for selector in readable:
            sizes[f"{name} {selector}"] = size = smallest_text(teacher, selector)
            assert size is not None and size >= BACK_ROW_PX, f"{lang}, {name}: {selector} {size}"

    try:
        # Zuzana joined on her phone; the three others join through the store
        pupils = [(kept["pid"], kept["token"])]
        pupils += [room.join_class(code, name) for name in ["Aleksandra", "Benedikt", "Cy"]]
        teacher.wait_for_function(
            "() => document.querySelectorAll('.mg-students li').length === 4")
        stage("joining", [".mg-class-code", ".mg-address", ".mg-students ul"],
              [".mg-class-top svg.mg-qr", ".mg-call-button"])
        check_one_row(teacher, f"{lang}, joining")
        check_address_breaks(teacher, f"{lang}, joining")

        def place(k: int, who: list[tuple[str, str]]) -> None:
            for pid, secret in who:
                room.place(code, pid, secret, k, (k * 7 + pupils.index((pid, secret))) % 25)

        for k in range(3):  # called by the mouse, as a teacher does
            teacher.locator(".mg-call-button").click()
            teacher.wait_for_selector(f'.mg-call-progress p[data-called="{k + 1}"]')
            if k == 0:  # the first number called, on the phone and the projector
                wait_status(student, 0, 1)
                problems += page_problems(student, lang, "join grid, phone")
                problems += page_problems(teacher, lang, "teacher, projector")
                problems += [f"teacher, projector: small text {t}"
                             for t in teacher.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)]
                teacher.set_viewport_size(PHONE)
                problems += page_problems(teacher, lang, "teacher, phone")
                teacher.set_viewport_size(PROJECTOR)
            place(k, pupils[:3] if k == 2 else pupils)
        teacher.wait_for_selector('.mg-call-progress p[data-called="3"][data-waiting="1"]')
        stage("calling", [".mg-class-code", ".mg-called-now", ".mg-call-progress p",
                          ".mg-students ul"], [".mg-class-top svg.mg-qr", ".mg-call-button"])
        check_address_breaks(teacher, f"{lang}, calling")  # in its narrow column
        place(2, pupils[3:])
        for k in range(3, 25):
            room.call(code, token)
            place(k, pupils if k < 24 else pupils[:2])
        # two students still place the last number: no results yet, and the page says so
        teacher.wait_for_selector('.mg-call-progress p[data-called="25"][data-waiting="2"]')
        teacher.wait_for_selector(".mg-still-placing", state="visible")
        assert teacher.locator(".mg-class-results").is_hidden()
        place(24, pupils[2:])
        teacher.wait_for_selector(".mg-ranking .mg-rank")
        stage("results", [".mg-ranking table"], [".mg-again"])
        assert teacher.locator(".mg-ranking .mg-rank").count() == 4
    finally:
        store.close()
    print(lang, sizes)
    table = device()
    table.set_viewport_size(PHONE)
    open_page(table, base, "table.ipynb", "", ".mg-join-table", lang)
    problems += page_problems(table, lang, "table form, phone")
    open_table_with_a_bot(table, "triomino")
    problems += page_problems(table, lang, "Triomino table, phone")
    # the same table watched on the projector (the teacher's list links it): the players'
    # points and tiles within the column beside the board
    table_code = table.locator(".mg-table-code").inner_text()
    watcher = device()
    watcher.set_viewport_size(PROJECTOR)
    open_page(watcher, base, "table.ipynb", f"&watch={table_code}", ".mg-table-scores", lang)
    problems += page_problems(watcher, lang, "Triomino table watched, projector")
    sticks_out = watcher.evaluate("""() => {
        const scores = document.querySelector('.mg-table-scores').getBoundingClientRect();
        const side = document.querySelector('.mg-table-side').getBoundingClientRect();
        return scores.right > side.right + 0.5 ? [scores.right, side.right] : null; }""")
    if sticks_out:
        problems.append(f"Triomino table watched: the scores stick out {sticks_out}")
    assert problems == [], "\n".join(problems)
    for page in (teacher, student, table, watcher):
        assert page.mg_errors == []
    assert teacher.mg_errors == []


def test_the_join_address_opens_in_the_devices_language(classroom_server: tuple[str, str],
                                                       browser: Any) -> None:
    """The join address carries no language: a Polish phone opens the page in Polish."""
    base, _store_url = classroom_server
    context = browser.new_context(viewport=PHONE, locale="pl-PL")
    context.set_default_timeout(TIMEOUT)
    try:
        page = context.new_page()
        page.goto(f"{base}/voila/render/join.ipynb?code=K3M9T", wait_until="domcontentloaded")
        page.wait_for_url("**lang=pl**")
        wait_rendered(page, ".mg-join-button")
        assert page.locator(".mg-join-button").inner_text().strip() == "Dołącz do klasy"
        assert "code=K3M9T" in page.url
    finally:
        context.close()
