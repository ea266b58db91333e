"""The class pages driven from Python, as a browser would, with live updates on an event loop."""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Callable

import pytest
from pages_support import (
    arrow_keys,
    classroom_codes,
    finish_game,
    join_as,
    join_table,
    key_enter,
    open_table,
    open_with_a_bot,
    opened_class,
    run_until,
)

import mathgames.classroom.service as service
import mathgames.pages.live as live
from mathgames.core.i18n import format_number, set_language
from mathgames.core.svg import esc
from mathgames.matematiko.match import cell_index, cell_name
from mathgames.pages.join import JoinPage
from mathgames.pages.table import TablePage
from mathgames.pages.teacher import TeacherPage


def test_a_class_game_across_pages_with_a_reload(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        code = teacher.state.code
        assert code in teacher.top.value and "<svg" in teacher.top.value  # code and QR code
        students = [join_as(teacher, name) for name in ("Ann", "Ben", "Cy")]
        for page in students:
            assert page.state is not None, page.message.value
        run_until(loop, lambda: len(teacher.state.students) == 3)
        assert "Ann" in teacher.students.value
        for k in range(25):
            teacher.call()
            run_until(loop, lambda k=k: all(len(p.state.calls) == k + 1 for p in students))
            assert 'data-state="thinking"' in teacher.students.value or k > 0
            for i, page in enumerate(students):
                page.board.click_cell(cell_name((k + i) % 25))
            if k == 10:  # Ben reloads: a new page gets the kept pass from the browser
                kept = students[1].board.storage_value
                students[1].close()
                students[1] = JoinPage(code="")
                students[1].board.offer_stored(kept)
                assert students[1].state.students[students[1].pid].cells == list(
                    range(1, 12))
            run_until(loop, lambda: not teacher.state.waiting())
        assert teacher.state.is_over and "mg-rank" in teacher.ranking.value
        assert teacher.chart_box.children and "data:text/csv" in teacher.export.value
        assert "Game over" in students[0].status.value
        assert teacher.state.csv().count("\n") == 4
        # the winner's grid up close first; any student's on request
        standings = teacher.state.standings()
        assert teacher.closeup_pick.value == standings[0].pid
        assert [label for label, _pid in teacher.closeup_pick.options] == [
            f"{s.rank}. {s.name} ({s.points})" for s in standings]
        # the ranking changes (the last placements come in after the last call): the
        # close-up follows the winner until the teacher picks a grid
        final, flipped = teacher.state, teacher.state.copy()
        first, last = (flipped.students[s.pid] for s in (standings[0], standings[-1]))
        first.grid, last.grid = [None] * 25, first.grid  # the winner's grid is the last one's
        teacher.state = flipped
        teacher.show_results()
        winner = flipped.standings()[0].pid
        assert winner != first.pid and teacher.closeup_pick.value == winner
        assert f'data-total="{flipped.students[winner].points}"' in teacher.closeup.value
        teacher.state = final
        teacher.show_results()
        last = teacher.state.students[standings[-1].pid]
        teacher.closeup_pick.value = last.pid
        assert last.name in teacher.closeup.value
        assert teacher.closeup.value.count('class="mg-number"') == 25
        assert f'data-total="{last.points}"' in teacher.closeup.value
        teacher.redraw()  # a redraw keeps the grid the teacher picked
        assert teacher.closeup_pick.value == last.pid
        # a new class on the same page starts without the last one's results
        teacher.open_class()
        assert teacher.results.layout.display == "none"
        assert teacher.state.code != code

    in_thread(body)


def test_a_number_typed_wrong_is_taken_back_on_every_page(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        assert teacher.uncall_button.disabled  # nothing called yet
        students = [join_as(teacher, name) for name in ("Ann", "Ben", "Cy")]
        ann, ben, cy = students
        run_until(loop, lambda: len(teacher.state.students) == 3)
        teacher.typed.value = "13"  # meant: 3
        teacher.typed_button.click()
        run_until(loop, lambda: all(len(p.state.calls) == 1 for p in students))
        assert not teacher.uncall_button.disabled
        # the number large on the projector, and the numbers called so far
        assert '<div class="mg-called-now" aria-hidden="true">13</div>' in teacher.progress.value
        assert "Called so far: 13<" in teacher.progress.value
        ann.board.click_cell("c3")  # Ann has placed the 13; Ben and Cy are about to
        assert ann.state.students[ann.pid].grid[12] == 13
        cy.feed.stop()  # Cy's page will hear of it only when Cy clicks
        teacher.auto.value = True  # calling every few seconds stops: the teacher goes on
        teacher.uncall_button.click()  # asked first, about that number and who placed it
        confirm = teacher.uncall_confirm
        assert confirm.layout.display is None and teacher.state.calls == [13]
        assert "Take back the 13? 1 student has placed it" in confirm.text.value
        confirm.no_button.click()
        assert confirm.layout.display == "none" and teacher.state.calls == [13]
        assert teacher.auto.value
        teacher.uncall_button.click()
        confirm.yes_button.click()
        assert teacher.state.calls == [] and not teacher.auto.value
        assert "13" in teacher.message.value and teacher.uncall_button.disabled
        assert "mg-called-now" not in teacher.progress.value  # no number called now
        run_until(loop, lambda: all(p.state.calls == [] and "13" in p.message.value
                                    for p in (ann, ben)))
        assert ann.state.students[ann.pid].grid[12] is None
        assert 'data-placed="0" data-called="0"' in ann.status.value
        assert 'class="mg-number"' not in ann.board.svg
        ben.board.click_cell("a1")  # nothing to place: nothing happens, the news stays
        assert "13" in ben.message.value and ben.state.students[ben.pid].cells == []
        assert cy.state.calls == [13]
        cy.board.click_cell("a1")  # placed as it was taken back: told, and nothing placed
        assert "13" in cy.message.value and 'role="status"' in cy.message.value
        assert cy.state.calls == [] and cy.state.students[cy.pid].cells == []
        teacher.typed.value = "3"
        teacher.typed_button.click()
        run_until(loop, lambda: ann.state.calls == ben.state.calls == [3])
        assert ann.message.value == ""  # the new number clears the old news
        teacher.typed.value = "9"
        teacher.typed_button.click()
        assert ">9</div>" in teacher.progress.value
        assert "Called so far: 3, 9<" in teacher.progress.value
        teacher.uncall_button.click()
        teacher.uncall_confirm.yes_button.click()
        run_until(loop, lambda: ann.state.calls == ben.state.calls == [3])
        assert ">3</div>" in teacher.progress.value
        ann.board.click_cell("c3")
        ben.board.click_cell("a1")
        assert [p.state.students[p.pid].grid.count(3) for p in (ann, ben)] == [1, 1]
        teacher.uncall_button.click()  # asked about the 3, which two have placed ...
        assert "Take back the 3? 2 students have placed it" in confirm.text.value
        teacher.call()  # ... but the next number comes first: the question goes
        assert confirm.layout.display == "none" and len(teacher.state.calls) == 2
        confirm.yes_button.click()  # a click that was already on its way takes nothing
        assert len(teacher.state.calls) == 2

    in_thread(body)


def test_the_teacher_plays_again_with_the_same_class(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        students = [join_as(teacher, name) for name in ("Ann", "Ben")]
        run_until(loop, lambda: len(teacher.state.students) == 2)

        def play_a_game() -> None:
            for k in range(25):
                teacher.call()
                run_until(loop, lambda k=k: all(len(p.state.calls) == k + 1 for p in students))
                for i, page in enumerate(students):
                    page.board.click_cell(cell_name(k if i == 0 else 24 - k))
                run_until(loop, lambda: not teacher.state.waiting())

        play_a_game()
        assert teacher.results.layout.display is None
        # the 25th number, taken back after a "yes" that warns of the results, and called again
        last = teacher.state.calls[-1]
        teacher.uncall_button.click()
        assert (f"Take back the {last}? 2 students have placed it: it leaves their grids. "
                "The results leave the screen") in teacher.uncall_confirm.text.value
        teacher.uncall_confirm.yes_button.click()
        assert len(teacher.state.calls) == 24 and teacher.results.layout.display == "none"
        run_until(loop, lambda: all(len(p.state.calls) == 24 for p in students))
        teacher.typed.value = str(last)
        teacher.typed_button.click()
        run_until(loop, lambda: all(len(p.state.calls) == 25 for p in students))
        for i, page in enumerate(students):
            page.board.click_cell(cell_name(24 if i == 0 else 0))
        run_until(loop, lambda: teacher.results_shown)  # once both have placed it
        first = {pid: s.points for pid, s in teacher.state.students.items()}
        assert teacher.results.layout.display is None and teacher.totals.value == ""
        assert 'download="class-' + teacher.state.code + '.csv"' in teacher.export.value
        teacher.again_button.click()  # asked first: "no" keeps the results
        assert "Start the next game?" in teacher.again_confirm.text.value
        teacher.again_confirm.no_button.click()
        assert teacher.state.game == 1 and teacher.results.layout.display is None
        teacher.again_button.click()
        teacher.again_confirm.yes_button.click()
        assert teacher.state.game == 2 and teacher.results.layout.display == "none"
        assert "Game 2" in teacher.progress.value
        run_until(loop, lambda: all(p.state.game == 2 for p in students))
        for page in students:
            assert "Game 2" in page.message.value
            assert 'data-placed="0" data-called="0"' in page.status.value
            assert 'class="mg-number"' not in page.board.svg
        play_a_game()
        state = teacher.state
        assert "Total of 2 games" in teacher.totals.value
        assert teacher.totals.layout.display is None
        for standing in state.totals():  # each total in the table, in order
            assert standing.points == first[standing.pid] + state.students[standing.pid].points
        shown = [int(x) for x in re.findall(r'mg-points">(\d+)<', teacher.totals.value)]
        assert shown == [t.points for t in state.totals()]
        assert f'download="class-{state.code}-2.csv"' in teacher.export.value
        for page in students:  # each student sees this game's place and the total's
            total = next(t for t in state.totals() if t.pid == page.pid)
            assert (f"all 2 games: {total.points} points, place {total.rank}"
                    in html.unescape(page.status.value))

    in_thread(body)


def test_the_teacher_removes_a_name_from_the_class(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        assert teacher.remove_box.layout.display == "none"  # nobody to remove yet
        pages = {name: join_as(teacher, name) for name in ("Ann", "Bum", "Cy")}
        run_until(loop, lambda: len(teacher.state.students) == 3)
        assert [label for label, _pid in teacher.remove_pick.options] == ["Ann", "Bum", "Cy"]
        teacher.remove_pick.label = "Ann"
        teacher.remove_button.click()  # asked first: "no" keeps Ann
        teacher.remove_confirm.no_button.click()
        assert len(teacher.state.students) == 3 and teacher.remove_confirm.layout.display == "none"
        teacher.call()
        run_until(loop, lambda: all(len(p.state.calls) == 1 for p in pages.values()))
        pages["Cy"].feed.stop()  # Cy's page will hear of it only when Cy clicks
        for name in ("Bum", "Cy"):
            teacher.remove_pick.label = name
            teacher.remove_button.click()
            assert f"Remove {name} from the class?" in teacher.remove_confirm.text.value
            teacher.remove_confirm.yes_button.click()
            assert f"{name} is no longer in the class" in teacher.message.value
        assert [label for label, _pid in teacher.remove_pick.options] == ["Ann"]
        assert "Bum" not in teacher.students.value and "Cy" not in teacher.students.value
        run_until(loop, lambda: pages["Bum"].state is None)
        pages["Cy"].board.click_cell("a1")  # placed as Cy was removed: told, no crash
        for name in ("Bum", "Cy"):
            page = pages[name]
            assert "removed you" in page.message.value and page.board.storage_value == ""
            assert page.form.layout.display is None and page.board.layout.display == "none"
        pages["Ann"].board.click_cell("a1")
        run_until(loop, lambda: not teacher.state.waiting())
        assert list(teacher.state.students) == [pages["Ann"].pid]

    in_thread(body)


def test_a_student_plays_by_keyboard_and_hears_each_number(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        ann = join_as(teacher, "Ann")
        ann.board.press_key("Enter")  # nothing called yet: said, nothing placed
        assert ann.board.announce == "Wait for the teacher's next number"
        teacher.typed.value = "7"
        teacher.typed_button.click()
        run_until(loop, lambda: ann.state.calls == [7])
        assert ann.board.announce == "Place the 7"  # heard as soon as it is called
        for key in ("ArrowUp", "ArrowUp", "ArrowUp", "ArrowLeft"):  # from c3, wrapping
            ann.board.press_key(key)
        assert ann.cursor == cell_index("b5") and ann.board.announce == "b5: empty"
        assert 'data-cell="b5"' in ann.board.svg
        ann.board.press_key(" ")
        assert ann.state.students[ann.pid].grid[cell_index("b5")] == 7
        assert ann.board.announce == "b5: 7. Wait for the teacher's next number"
        teacher.typed.value = "2"
        teacher.typed_button.click()
        run_until(loop, lambda: ann.state.calls == [7, 2])
        ann.board.press_key("Enter")  # the frame is still on b5: taken, and said so
        assert "taken" in ann.message.value and len(ann.state.students[ann.pid].cells) == 1
        ann.board.press_key("ArrowRight")
        assert ann.board.announce == "c5: empty"
        ann.board.press_key("Enter")
        assert ann.state.students[ann.pid].grid[cell_index("c5")] == 2

    in_thread(body)


def test_a_student_takes_back_a_tap_on_the_wrong_cell(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        ann, ben = join_as(teacher, "Ann"), join_as(teacher, "Ben")
        assert ann.undo_button.layout.display is None and ann.undo_button.disabled
        teacher.typed.value = "7"
        teacher.typed_button.click()
        run_until(loop, lambda: ann.state.calls == ben.state.calls == [7])
        assert ann.undo_button.disabled  # nothing placed yet
        ann.board.click_cell("e5")  # meant: a1
        ben.board.click_cell("b2")
        run_until(loop, lambda: not teacher.state.waiting())
        assert not ann.undo_button.disabled
        ann.undo_button.click()
        grid = ann.state.students[ann.pid].grid
        assert grid[cell_index("e5")] is None and ann.undo_button.disabled
        assert 'data-placed="0" data-called="1"' in ann.status.value
        assert ann.board.announce == "e5 is free again: Place the 7"
        assert 'class="mg-number"' not in ann.board.svg
        # the teacher sees Ann thinking again, Ben's number stays where it was
        run_until(loop, lambda: teacher.state.waiting() == [ann.pid])
        assert 'data-state="thinking"' in teacher.students.value
        assert ben.state.students[ben.pid].grid[cell_index("b2")] == 7
        ann.board.click_cell("a1")
        assert ann.state.students[ann.pid].grid[0] == 7
        # by keyboard: U takes it back too, then Enter places it where the frame is
        ann.board.press_key("u")
        assert ann.state.students[ann.pid].cells == [] and ann.cursor == 0
        ann.board.press_key("Enter")
        assert ann.state.students[ann.pid].grid[0] == 7
        # the next number is called: the 7 stays, and the student is told why
        teacher.typed.value = "2"
        teacher.typed_button.click()
        run_until(loop, lambda: ann.state.calls == ben.state.calls == [7, 2])
        assert ann.undo_button.disabled
        ann.board.press_key("Backspace")
        assert "before the next one" in ann.message.value and 'role="alert"' in ann.message.value
        assert "before the next one" in ann.board.announce  # heard, too
        assert ann.state.students[ann.pid].grid[0] == 7
        # a page that has not heard of the next number yet tries: refused, and redrawn
        ben.board.click_cell("b3")
        ben.feed.stop()  # Ben's page will hear of the 5 only when Ben acts
        teacher.typed.value = "5"
        teacher.typed_button.click()
        assert ben.state.calls == [7, 2] and not ben.undo_button.disabled
        ben.undo_button.click()
        assert "before the next one" in ben.message.value
        assert ben.state.calls == [7, 2, 5] and ben.state.students[ben.pid].grid[
            cell_index("b3")] == 2
        assert 'data-placed="2" data-called="3"' in ben.status.value

    in_thread(body)


def test_a_forged_pass_is_refused(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        ann = join_as(teacher, "Ann")
        forged = json.loads(ann.board.storage_value) | {"token": "forged"}
        intruder = JoinPage(code="")
        intruder.board.offer_stored(json.dumps(forged))
        assert intruder.state is None and "not valid" in intruder.message.value
        nested = JoinPage(code="")  # deeper than Python's JSON reader goes
        nested.board.offer_stored("[" * 100_000 + "]" * 100_000)
        assert nested.state is None and "is damaged: join" in nested.message.value
        thief = TeacherPage()
        thief.resume(json.dumps({"code": teacher.state.code, "token": ann.token}))
        assert thief.state is None
        assert "Only the teacher who opened this class" in thief.notice.value
        thief.resume("[" * 100_000 + "]" * 100_000)
        assert thief.state is None and "is damaged: open a new class" in thief.notice.value

    in_thread(body)


def test_late_joiner_places_the_numbers_called_so_far(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        for card in (7, 7, 2):
            teacher.typed.value = str(card)
            teacher.typed_button.click()
        late = join_as(teacher, "Dan")
        assert "3 called numbers to place" in late.status.value
        late.board.click_cell("a1")
        assert late.state.students[late.pid].grid[0] == 7

    in_thread(body)


def test_two_tables_pages_play_chinese_checkers_with_a_bot(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        short = {"placement": {"0": ["e5"], "1": ["m13"], "2": ["e13"]}, "move_limit": 60}
        ann = open_table("star", seats=3, settings=short)
        code = ann.state.code
        ben = join_table(code, "Ben")
        run_until(loop, lambda: ann.state.seats[1] is not None)
        ann.start_button.click()
        run_until(loop, lambda: ben.state.started)
        from mathgames.halma.bots import GreedyBot

        pages = {0: ann, 1: ben}
        heard: list[str] = []  # what Ben's screen reader says
        ben.board.observe(lambda change: heard.append(change["new"]), "announce")
        while not ann.state.is_over:
            turn = ann.state.to_move
            if turn in pages and pages[turn].state.ply == ann.state.ply:
                page = pages[turn]
                move = GreedyBot(seed=1).choose(page.state.game)
                page.board.click_cell(move.start)
                assert page.selected == move.start
                page.board.click_cell(move.end)
            run_until(loop, lambda: ann.state.ply == ben.state.ply, timeout=30)
            loop.run_until_complete(asyncio.sleep(0.05))
        assert ben.state.is_over and ben.state.moves == ann.state.moves
        game = ann.state.game  # beside each name: the pieces already home, of how many
        for seat, name in enumerate(["Ann (you)", "Ben", "bot"]):
            assert re.search(rf'<li data-seat="{seat}"[^>]*>{re.escape(name)} · '
                             rf"{game.pieces_home(seat)} of 1 home</li>", ann.info.value)
        assert any(game.pieces_home(seat) == 1 for seat in range(3))  # the winner's
        # Ben hears the others' moves (Ann's and the bot's), each once, never his own
        told = re.findall(r"(Ann|Ben|bot): ([a-z0-9-]+)\.", " ".join(heard))
        names = ["Ann", "Ben", "bot"]
        assert told == [(names[mover], str(move)) for (mover, _p, _d), move
                        in zip(ben.state.game.history, ben.state.game.moves, strict=True)
                        if mover != 1]
        assert "Game over" in ann.status.value and ann.state.is_bot(2)
        # another game with the same players: Ann asks, Ben's page follows by itself
        assert ann.again_button.layout.display is None
        old = code
        ann.again_button.click()
        new = ann.state.code
        assert new != old and not ann.state.started and ann.seat == 0
        assert "A new game with the same players" in ann.message.value
        assert json.loads(ann.board.storage_value)["code"] == new  # a reload finds it
        run_until(loop, lambda: ben.state.code == new, timeout=30)
        assert ben.seat == 1 and json.loads(ben.board.storage_value)["code"] == new
        assert ben.again_button.layout.display == "none"
        run_until(loop, lambda: ann.state.seats[1] is not None)
        assert ann.state.player_name(1) == "Ben" and ann.state.is_bot(2)
        ann.start_button.click()
        run_until(loop, lambda: ben.state.started)

    in_thread(body)


def test_a_player_leaves_a_table_and_a_bot_plays_on(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        ann = open_table("halma")
        ben = join_table(ann.state.code, "Ben")
        run_until(loop, lambda: ann.state.seats[1] is not None)
        ann.start_button.click()
        run_until(loop, lambda: ben.state.started)
        # during the game Ben is asked first; "no" keeps him at the table
        ben.leave_button.click()
        assert ben.leave_confirm.layout.display is None
        ben.leave_confirm.no_button.click()
        assert ben.state is not None and not ann.state.is_bot(1)
        ben.leave_button.click()
        ben.leave_confirm.yes_button.click()
        # his page shows the forms again and forgets its pass (a device the class shares)
        assert ben.state is None and ben.board.storage_value == ""
        assert ben.form.layout.display is None and ben.playing.layout.display == "none"
        run_until(loop, lambda: ann.state.is_bot(1))
        assert "bot" in ann.info.value and "Ben" not in ann.info.value
        # Ann moves; the bot in Ben's seat answers
        from mathgames.halma.bots import GreedyBot

        ann.play_text(str(GreedyBot(seed=1).choose(ann.state.game)))
        run_until(loop, lambda: ann.state.ply == 2, timeout=30)
        assert ann.state.to_move == 0

    in_thread(body)


def test_a_code_typed_wrong_is_said_in_the_pages_language(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        said = {"en": "A class code has 5 letters and digits, and “k39t” has 4: check the code",
                "pl": "Kod klasy ma 5 znaków (litery i cyfry), a „k39t” ma 4: sprawdź kod",
                "cs": "Kód třídy má 5 znaků (písmena a číslice), ale „k39t“ jich má 4",
                "ru": "В коде класса 5 знаков (буквы и цифры), а в «k39t» их 4: проверьте код"}
        try:
            for lang, words in said.items():
                set_language(lang)
                student = JoinPage(code="")
                student.code_input.value, student.name_input.value = " k39t", "Ann"
                student.join_button.click()
                assert student.state is None
                assert words in html.unescape(student.message.value), lang
                player = TablePage()  # a class code typed wrong when opening a table
                player.name_input.value, player.class_input.value = "Ann", "k39t "
                player.open_button.click()
                assert player.state is None
                assert words in html.unescape(player.message.value), lang
            # a paragraph pasted into the box is quoted short
            student.code_input.value = "k" * 300
            student.join_button.click()
            assert "«" + "k" * 39 + "…» их 300" in html.unescape(student.message.value)
            # five characters, some of them never in a code: which ones, in the language
            student.code_input.value = "ABCDE"
            student.join_button.click()
            assert "В кодах классов никогда нет B (и 0, 1, 2, 5, 8, I, L, O, S, Z" in (
                html.unescape(student.message.value))
            assert live.classroom().store.sessions() == []  # nothing opened by any of it
        finally:
            set_language("en")

    in_thread(body)


def test_the_player_who_opens_a_table_chooses_its_bots_level(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        page = TablePage()
        assert page.level_choice.value == "medium"  # the game pages' default level
        assert [label for label, _name in page.level_choice.options] == [
            "easy", "medium", "hard"]
        page.name_input.value = "Ann"
        page.game_choice.value = "halma"
        page.level_choice.value = "hard"
        page.open_button.click()
        assert page.state.settings["bots"] == "hard" and "Bots: hard" in page.info.value
        page.start_button.click()
        assert page.state.seats[1] == {"bot": True, "level": "hard"}

    in_thread(body)


def test_a_halma_table_played_by_keyboard(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        from mathgames.halma.bots import GreedyBot
        from mathgames.halma.view import player_label

        ann = open_with_a_bot("halma")
        topology = ann.state.game.topology
        assert ann.cursor == topology.names[topology.center]
        for _ in range(2):  # two of Ann's moves, each by keys alone
            run_until(loop, lambda: ann.state.to_move == 0)
            ply, move = ann.state.ply, GreedyBot(seed=1).choose(ann.state.game)
            for key in arrow_keys(topology, ann.cursor, move.start):
                ann.board.press_key(key)
            assert ann.cursor == move.start
            assert ann.board.announce == f"{move.start}: {player_label(0)}"
            ann.board.press_key("Enter")
            assert ann.selected == move.start
            for key in arrow_keys(topology, ann.cursor, move.end):
                ann.board.press_key(key)
            ann.board.press_key(" ")
            assert ann.state.ply > ply and ann.state.moves[ply] == str(move)
        ann.board.press_key("+")
        assert ann.board.zoom > 1

    in_thread(body)


def test_a_triomino_table_played_by_keyboard(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        ann = open_with_a_bot("triomino")
        placed = 0
        while placed < 2:
            run_until(loop, lambda: ann.state.to_move == 0 or ann.state.is_over, timeout=30)
            game = ann.state.game
            assert not ann.state.is_over and game.phase == "play"  # two tiles come first
            if not game.legal_placements():
                ply = ann.state.ply
                ann.board.press_key("d" if game.can_draw() else "p")
                assert ann.state.ply > ply
                continue
            placement = game.legal_placements()[0]
            index = game.hand(0).index(placement.tile)
            if index < 9:
                ann.board.press_key(str(index + 1))
            while ann.tile != placement.tile:  # a tile beyond the 9th, or a drawn one
                ann.board.press_key("t")
            assert ann.tile == placement.tile
            assert ann.board.announce == f"Tile {placement.tile}"
            while ann.rotation != placement.rotation:
                ann.board.press_key("r")
            for _step in range(200):
                if ann.cursor == placement.cell:
                    break
                ann.board.press_key("n")
            assert ann.board.announce.startswith("Free place ")
            ply = ann.state.ply
            ann.board.press_key("Enter")
            assert ann.state.ply > ply and len(ann.state.game.table) > 0
            placed += 1

    in_thread(body)


def test_a_triomino_table_shows_the_points_and_tells_each_turn(
        in_thread: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    import mathgames.pages.table as table_page
    from mathgames.triomino.narrate import describe_start, describe_turn, round_summary

    monkeypatch.setattr(table_page, "BOT_DELAY", 0.01)
    # one deal, always the same game (every move is a bot's, seeded by the table): about 3
    # deals in 100 end at the second round (a total reaches 400), with no second pause to tell
    monkeypatch.setattr(service, "shuffled_seed", lambda: 20261203)

    def body(loop: asyncio.AbstractEventLoop) -> None:
        ann = open_table("triomino", seats=3)
        heard: list[str] = []
        ann.board.observe(lambda change: heard.append(change["new"]), "announce")
        ann.start_button.click()
        names = ["Ann", "bot (2)", "bot (3)"]  # two bots: told apart by their seats

        def check_the_side() -> None:
            game = ann.state.game
            rows = re.findall(r'<tr data-seat="(\d)".*?<th scope="row">(.*?)</th>'
                              r'<td class="mg-points">([^<]+)</td><td class="mg-tiles">(\d+)</td>',
                              ann.info.value)
            assert [(int(seat), points, int(tiles)) for seat, _n, points, tiles in rows] == [
                (i, format_number(game.scores[i]), len(game.hand(i))) for i in range(3)]
            assert rows[0][1].startswith("1.\u00a0Ann (you)")
            pool = len(game.pool)
            assert (f"Round {game.round} · {pool} tile{'s' if pool != 1 else ''} in the pool"
                    in ann.info.value)

        told_rounds = 0
        for _ in range(400):
            run_until(loop, lambda: ann.state.to_move == 0 or ann.state.is_over
                      or ann.state.game.phase == "round_over", timeout=30)
            state = ann.state
            check_the_side()
            if state.is_over:
                break
            if state.game.phase == "round_over":
                # how the round ended and the points left in hand, until Ann deals: the
                # bots wait for her even when it is a bot's turn to deal
                summary = " ".join(round_summary(state.game, names.__getitem__))
                assert summary and summary in html.unescape(ann.status.value)
                assert any(summary in line for line in heard)  # said, whoever went out
                assert "Press Next round" in ann.status.value
                assert ann.next_button.layout.display is None
                told_rounds += 1
                loop.run_until_complete(asyncio.sleep(0.2))  # 20 times the bots' delay
                assert ann.state.game.phase == "round_over" and ann.state.ply == state.ply
                if told_rounds == 2:
                    break
                ann.next_button.click()
                assert ann.state.game.phase == "play" and ann.next_button.layout.display == "none"
                continue
            told = describe_turn(state.game, names.__getitem__)
            movers = [item[1] for item in state.game.log if item[1] >= 0]
            if state.game.is_start_move:  # who starts the round, and why
                start = describe_start(state.game, names.__getitem__)
                assert "Starting player: Ann" in start
                assert f'<p class="mg-table-last">{esc(start)}</p>' in ann.status.value
            elif movers and movers[-1] != 0:  # a bot's turn just before Ann's, told and said
                assert told.startswith(names[movers[-1]])
                assert f'<p class="mg-table-last">{esc(told)}</p>' in ann.status.value
                # said as it came: a draw once it was drawn, then where the tile went
                assert any(told.split("; ")[-1] in line for line in heard)
            ann.play_text(ann.state.bot_move())
        assert told_rounds == 2
        assert not any(line.startswith("Ann ") for line in heard)  # her own turns: not told

    in_thread(body)


def test_a_triomino_page_shows_only_its_own_tiles(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        from mathgames.triomino.geometry import cell_id
        from mathgames.triomino.view import rack_id, rack_svg

        ann = open_with_a_bot("triomino")
        assert ann.state.started and ann.state.is_bot(1)
        for _ in range(6):
            if ann.state.to_move == 0:
                if ann.state.game.phase == "play" and ann.state.game.legal_placements():
                    # the status says what to do, and the tiles that may go now stand out
                    # (the start tile; after a draw, the drawn one); "bright" only then
                    dimmed = set(ann.state.game.hand(0)) - set(
                        ann.state.game.placeable_tiles())
                    wanted = ("choose one of your bright tiles" if dimmed
                              else "choose one of your tiles, then")
                    assert wanted in ann.status.value
                    # the free places show before a tile is chosen (the middle, at first);
                    # a click there asks for a tile and changes nothing
                    places = ann.state.game.table.frontier()
                    assert all(f'data-cell="{cell_id(c)}"' in ann.board.svg for c in places)
                    ply = ann.state.ply
                    ann.board.click_cell(cell_id(min(places)))
                    assert ann.state.ply == ply and "Choose a tile first" in ann.message.value
                    placement = ann.state.game.legal_placements()[0]
                    playable = set(ann.state.game.placeable_tiles())
                    assert ann.rack.svg == rack_svg(ann.state.game.hand(0), playable=playable,
                                                    title="Your tiles")
                    ann.rack.click_cell(rack_id(placement.tile))
                    assert "choose the tile&#x27;s place" in ann.status.value
                    while ann.rotation != placement.rotation:
                        ann.turn_button.click()
                    ann.board.click_cell(f"c{placement.cell[0]}_{placement.cell[1]}")
                else:
                    if ann.state.game.phase == "play":
                        assert "none of your tiles fits" in ann.status.value
                    ann.play_text(ann.state.bot_move())
            run_until(loop, lambda: ann.state.to_move == 0 or ann.state.is_over, timeout=30)
        mine = ann.state.game.hand(0)
        theirs = ann.state.game.hand(1)
        assert mine and theirs and ann.state.ply >= 2
        assert all(rack_id(t) in ann.rack.svg for t in mine)
        assert not any(rack_id(t) in ann.rack.svg + ann.board.svg for t in theirs)

    in_thread(body)


def test_the_teacher_sees_the_tables_of_the_class(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        player = open_table("halma", class_code=teacher.state.code)
        teacher.show_tables()
        assert player.state.code in teacher.tables.value and "Ann" in teacher.tables.value
        assert "waiting for players" in teacher.tables.value
        # a short game against a bot, played to its end: the teacher's list says who won
        from mathgames.halma.bots import GreedyBot

        short = {"placement": {"0": ["e5"], "1": ["e13"]}, "move_limit": 60}
        ben = open_table("star", "Ben", class_code=teacher.state.code, settings=short)
        ben.start_button.click()
        teacher.show_tables()
        listed = f"<b>{ben.state.code}</b> Chinese checkers: Ben, bot (move 1)"
        assert listed in teacher.tables.value
        while not ben.state.is_over:
            if ben.state.to_move == 0:
                ben.play_text(str(GreedyBot(seed=1).choose(ben.state.game)))
            run_until(loop, lambda: ben.state.to_move == 0 or ben.state.is_over, timeout=30)
        winners = ben.state.winners()
        assert winners and ben.state.is_over
        teacher.show_tables()
        names = ", ".join(ben.state.player_name(i) for i in winners)
        assert f"(over: {names} won)" in teacher.tables.value
        assert f"Game over: {names} won" in ben.status.value
        # the same players' next game: listed once, with the games before it
        first = ben.state.code
        ben.again_button.click()
        teacher.show_tables()
        assert first not in teacher.tables.value
        assert (f"<b>{ben.state.code}</b> Chinese checkers: Ben, bot (waiting for players · "
                f"earlier games: {names} won)") in teacher.tables.value
        second = ben.state.code
        ben.start_button.click()
        while not ben.state.is_over:
            if ben.state.to_move == 0:
                ben.play_text(str(GreedyBot(seed=1).choose(ben.state.game)))
            run_until(loop, lambda: ben.state.to_move == 0 or ben.state.is_over, timeout=30)
        again = ", ".join(map(ben.state.player_name, ben.state.winners())) or "a draw"
        ben.again_button.click()
        teacher.show_tables()
        assert second not in teacher.tables.value
        assert (f"(waiting for players · earlier games: {names} won; {again}"
                + (" won)" if again != "a draw" else ")")) in teacher.tables.value
        # the list reads each table's new moves only, never a game again from its start
        kept = dict(teacher._tables)
        teacher.show_tables()
        assert all(teacher._tables[code] is kept[code] for code in kept)
        fresh = teacher.room.tables_of(teacher.state.code)  # as a replay from the start
        assert [(t.code, t.seq, t.moves, t.seats) for t in fresh] == [
            (t.code, t.seq, t.moves, t.seats) for t in teacher._tables.values()]
        # a Triomino table: each player's points so far beside their name
        cy = open_table("triomino", "Cy", class_code=teacher.state.code)
        cy.start_button.click()
        while cy.state.ply < 4:
            if cy.state.to_move == 0:
                cy.play_text(cy.state.bot_move())
            run_until(loop, lambda: cy.state.to_move == 0 or cy.state.ply >= 4, timeout=30)
        scores = cy.state.game.scores
        assert any(scores)  # a tile or two has scored
        teacher.show_tables()
        assert f"Triomino: Cy {scores[0]}, bot {scores[1]} (move " in teacher.tables.value
        # a table nobody sits at (left by two players asking for a new game at once) is not
        # listed
        empty = teacher.room.open_table("halma", 2, teacher.state.code)
        teacher.show_tables()
        assert empty not in teacher.tables.value and cy.state.code in teacher.tables.value

    in_thread(body)


def test_the_teacher_watches_a_table_from_the_list(in_thread: Callable[..., None],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from mathgames.halma.bots import GreedyBot
    from mathgames.triomino.view import rack_id

    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        ann = open_table("triomino", class_code=teacher.state.code)
        code = ann.state.code
        teacher.show_tables()
        link = re.search(r'<a class="mg-watch-table" href="([^"]+)" target="_blank" '
                         r'rel="noopener" aria-label="Watch table (\w+) \(opens a new tab\)">'
                         r'watch</a>', teacher.tables.value)
        assert link and link.group(2) == code
        assert html.unescape(link.group(1)) == f"table.ipynb?lang=en&watch={code}"
        # the link's page: the table as it is, no form, nothing to play with
        monkeypatch.setenv("QUERY_STRING", f"lang=en&watch={code}")
        watcher = TablePage()
        heard: list[str] = []
        watcher.board.observe(lambda change: heard.append(change["new"]), "announce")
        assert watcher.watching and watcher.state.code == code and watcher.seat == -1
        assert watcher.form.layout.display == "none" and watcher.playing.layout.display is None
        assert watcher.board.storage_value == ""  # no pass kept: a reload watches again
        hidden = (watcher.start_button, watcher.triomino_box)
        assert all(part.layout.display == "none" for part in hidden)
        assert watcher.leave_button.description == "Stop watching"
        assert "Waiting for the players to start" in watcher.status.value
        assert "You are watching this table" in watcher.help.value
        watcher.rejoin(ann.board.storage_value)  # a pass this browser kept: not taken up
        assert watcher.seat == -1 and watcher.pid == ""
        ann.start_button.click()
        run_until(loop, lambda: watcher.state.started)
        while ann.state.ply < 6:
            if ann.state.to_move == 0:
                ann.play_text(ann.state.bot_move())
            run_until(loop, lambda: ann.state.to_move == 0 or ann.state.ply >= 6, timeout=30)
        run_until(loop, lambda: watcher.state.ply == ann.state.ply)
        game = watcher.state.game
        assert f"Turn: {['Ann', 'bot'][game.current]}" in watcher.status.value
        assert f'<td class="mg-points">{format_number(game.scores[0])}</td>' in watcher.info.value
        # every player's turn told (turns that arrive together are said in one announcement)
        told = [part for line in heard for part in line.split(". ")]
        assert any(part.startswith("Ann ") for part in told)
        assert any(part.startswith("bot ") for part in told)
        tiles = game.hand(0) + game.hand(1)  # nobody's tiles on the watching page
        assert not any(rack_id(t) in watcher.rack.svg + watcher.board.svg for t in tiles)
        ply = ann.state.ply
        for key in ("d", "p", "1", "Enter"):  # keys that play do nothing here
            watcher.board.press_key(key)
        assert ann.room.load_table(code).ply == ply and watcher.message.value == ""
        # a Halma game watched to its end, then the same players' next table
        short = {"placement": {"0": ["e5"], "1": ["e13"]}, "move_limit": 60}
        ben = open_table("star", "Ben", settings=short)
        star = TablePage(watch=ben.state.code)
        ben.start_button.click()
        while not ben.state.is_over:
            if ben.state.to_move == 0:
                move = GreedyBot(seed=1).choose(ben.state.game)
                star.board.click_cell(move.start)  # the watcher's clicks change nothing
                star.board.click_cell(move.end)
                assert star.selected is None
                ben.play_text(str(move))
            run_until(loop, lambda: ben.state.to_move == 0 or ben.state.is_over, timeout=30)
        run_until(loop, lambda: star.state.is_over)
        assert star.again_button.layout.display == "none"
        ben.again_button.click()
        run_until(loop, lambda: star.state.code == ben.state.code)
        assert star.watching and star.seat == -1 and star.board.storage_value == ""
        assert "A new game with the same players" in star.message.value
        assert "Waiting for the players to start" in star.status.value
        # stop watching: the forms again, where a student may also watch a table by its code
        star.leave_button.click()
        assert not star.watching and star.state is None and star.form.layout.display is None
        assert ben.room.load_table(ben.state.code).seats == ben.state.seats  # nobody left
        star.table_input.value = code
        star.watch_button.click()
        assert star.watching and star.state.code == code and star.seat == -1
        assert star.leave_button.description == "Stop watching"
        # a code of no table (mistyped, or the class's own): said, and the forms are there
        for wrong in ("ZZZZZ", teacher.state.code, "<b>"):
            page = TablePage(watch=wrong)
            assert not page.watching and page.state is None
            assert 'role="alert"' in page.message.value and "<b>" not in page.message.value
            assert page.form.layout.display is None and page.playing.layout.display == "none"

    in_thread(body)


def test_numbers_are_called_every_n_seconds(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        teacher.seconds.value = 3
        teacher.auto.value = True
        run_until(loop, lambda: len(teacher.state.calls) == 2, timeout=60)
        teacher.auto.value = False
        called = len(teacher.state.calls)
        loop.run_until_complete(asyncio.sleep(3.5))
        assert len(teacher.state.calls) == called  # unticked: no more calls

    in_thread(body)


def test_a_reloaded_table_page_takes_back_its_seat(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        ann = open_table("halma")
        kept = ann.board.storage_value
        ann.close()
        again = TablePage(table="")
        again.board.offer_stored(kept)
        assert again.seat == 0 and again.state.seats[0]["name"] == "Ann"
        forged = TablePage(table="")
        forged.board.offer_stored(json.dumps(json.loads(kept) | {"token": "made-up"}))
        assert forged.state is None and "not valid" in forged.message.value
        nested = TablePage(table="")
        nested.board.offer_stored("[" * 100_000 + "]" * 100_000)
        assert nested.state is None and "is damaged: join" in nested.message.value

    in_thread(body)


def test_leaving_forgets_the_pass_and_shows_the_form(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        page = join_as(teacher, "Ann")
        assert page.board.storage_value and page.form.layout.display == "none"
        page.leave_button.click()  # nothing placed yet: nothing to lose, no question
        assert page.state is None and page.board.storage_value == ""
        assert page.form.layout.display is None
        # with numbers placed, a tap on Leave (below Undo) asks first: the name stays taken
        page = join_as(teacher, "Ben")
        teacher.call()
        run_until(loop, lambda: len(page.state.calls) == 1)
        page.board.click_cell("a1")
        page.leave_button.click()
        assert page.leave_confirm.layout.display is None and page.state is not None
        assert "as Ben" in page.leave_confirm.text.value
        page.leave_confirm.no_button.click()
        assert page.leave_confirm.layout.display == "none" and page.board.storage_value
        page.leave_button.click()
        page.leave_confirm.yes_button.click()
        assert page.state is None and page.board.storage_value == ""
        assert page.leave_confirm.layout.display == "none"

    in_thread(body)


def test_the_teacher_deletes_the_class_and_every_page_learns_it(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        code = teacher.state.code
        second_tab = TeacherPage()  # the same class open in another tab of the teacher's
        second_tab.resume(teacher.keeper.storage_value)
        ann = join_as(teacher, "Ann")
        teacher.call()
        run_until(loop, lambda: len(ann.state.calls) == 1)
        ann.board.click_cell("c3")
        kept_pass, grid = ann.board.storage_value, ann.board.svg
        player = open_table("halma", "Ben", class_code=code)
        watcher = TablePage(watch=player.state.code)  # the teacher watching the table
        teacher.delete_button.click()
        question = teacher.delete_confirm.text.value
        assert f"Delete the class {code} from the server for good?" in question
        assert "of its 1 student go" in question  # the table page's Ben is no student
        teacher.delete_confirm.no_button.click()
        assert teacher.state is not None and classroom_codes() >= {code, player.state.code}
        teacher.delete_button.click()
        teacher.delete_confirm.yes_button.click()
        assert teacher.state is None and teacher.game.layout.display == "none"
        assert teacher.keeper.storage_value == "" and classroom_codes() == set()
        assert f"The class {code} is deleted" in teacher.notice.value
        # every page of the class learns it from its feed, within a few seconds
        run_until(loop, lambda: ann.state is None and player.state is None
                  and watcher.state is None and second_tab.state is None)
        assert "The teacher has deleted the class" in ann.message.value
        assert ann.board.storage_value == "" and ann.form.layout.display is None
        # the grid stays on the screen as it was
        assert ann.board.svg == grid and ann.board.layout.display is None
        assert "no longer on the server" in player.message.value
        assert player.board.storage_value == "" and player.form.layout.display is None
        assert "no longer on the server" in watcher.message.value
        assert f"The class {code} is no longer on the server" in second_tab.notice.value
        # a reload with the old pass: said once, and the browser forgets it
        reloaded = JoinPage(code="")
        reloaded.board.offer_stored(kept_pass)
        assert reloaded.state is None and reloaded.board.storage_value == ""
        assert "The teacher has deleted the class" in reloaded.message.value
        # and a code typed wrong says so in the page's words
        typed = JoinPage(code=code)
        typed.name_input.value = "Cy"
        typed.join_button.click()
        assert f"There is no class {code}: check the code" in typed.message.value

    in_thread(body)


def test_enter_joins_a_class_and_a_table_and_opens_one(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        code = teacher.state.code
        student = JoinPage(code=code)
        student.name_input.value = "Be"
        key_enter(student.name_input, student.enter, held_back="Ben")
        assert student.state is not None, student.message.value
        assert [s.name for s in student.state.students.values()] == ["Ben"]
        # Enter in the code's box with no name yet: the page asks for one, as Join does
        other = JoinPage(code=code)
        key_enter(other.code_input, other.enter)
        assert other.state is None and "role=\"alert\"" in other.message.value
        # a table: Enter in the class's box opens one, with the name typed above
        ann = TablePage(class_code=code)
        ann.name_input.value = "Ann"
        key_enter(ann.class_input, ann.enter_open)
        assert ann.state is not None and ann.state.seats[0]["name"] == "Ann"
        # Enter after the name, the table's code in the address: Ben sits down
        ben = TablePage(table=ann.state.code)
        ben.name_input.value = "Be"
        key_enter(ben.name_input, ben.enter_name, held_back="Ben")
        assert ben.state is not None and ben.state.seats[1]["name"] == "Ben"
        # Enter after the name with no table's code: nothing happens, no error
        cy = TablePage()
        key_enter(cy.name_input, cy.enter_name, held_back="Cy")
        assert cy.state is None and cy.message.value == ""
        cy.table_input.value = ann.state.code.lower()
        key_enter(cy.table_input, cy.enter_join)  # a full table (2 seats): said so
        assert cy.state is None and "role=\"alert\"" in cy.message.value

    in_thread(body)


def test_a_card_typed_from_a_real_deck(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        # Enter in the box calls the card typed by then, and empties the box for the next
        teacher.typed.value = "1"
        key_enter(teacher.typed, teacher.enter_card, held_back=" 11 ")
        assert teacher.state.calls == [11] and teacher.typed.value == ""
        assert "Called so far: 11<" in teacher.progress.value
        # refused, said where, the box kept to mend, nothing called: a card the deck lacks,
        # a word, a number as long as a page, nothing at all, a fifth copy
        for text, said in (("14", "Cards are numbers from 1 to 13: 14 is not one"),
                           ("0", "Cards are numbers from 1 to 13: 0 is not one"),
                           # a text that is no number: in quotation marks
                           ("seven", "Cards are numbers from 1 to 13: “seven” is not one"),
                           ("7.5", "Cards are numbers from 1 to 13: “7.5” is not one"),
                           ("<b>", "1 to 13: “&lt;b&gt;” is not one"),
                           ("100", "Cards are numbers from 1 to 13: 100 is not one"),
                           # pasted by mistake: quoted short (int() refuses 4,301 digits)
                           ("9" * 5000, "9" * 39 + "…” is not one"),
                           ("  ", "Type the number of the card first: 1 to 13")):
            teacher.typed.value = text
            teacher.typed_button.click()
            assert teacher.state.calls == [11], text
            assert teacher.typed.value == text
            assert 'role="alert"' in teacher.message.value and said in teacher.message.value
        for _ in range(3):
            teacher.typed.value = "11"
            key_enter(teacher.typed, teacher.enter_card)
        assert teacher.state.calls == [11] * 4 and teacher.message.value == ""
        teacher.typed.value = "11"
        key_enter(teacher.typed, teacher.enter_card)
        assert teacher.state.calls == [11] * 4 and teacher.typed.value == "11"
        assert "The 11 was called four times already: a deck has four" in teacher.message.value
        # the stored class agrees with the page
        assert live.classroom().load_class(teacher.state.code).calls == [11] * 4

    in_thread(body)


def test_a_double_click_on_call_calls_one_number(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        teacher.call_button.click()
        teacher.call_button.click()  # the second click of a double-click
        assert len(teacher.state.calls) == 1 and teacher.call_button.disabled
        run_until(loop, lambda: not teacher.call_button.disabled)  # rested: it calls again
        teacher.call_button.click()
        assert len(teacher.state.calls) == 2
        # a card typed with a leading zero is called as its number, and the page says so
        teacher.typed.value = "013"
        teacher.typed_button.click()
        assert teacher.state.calls[-1] == 13
        assert "013 is called as the 13" in teacher.message.value

    in_thread(body)


def test_places_wait_for_the_last_number_and_follow_the_others(
        in_thread: Callable[..., None]) -> None:
    """After the 25th number the teacher's results wait until every student has placed it
    (or the teacher goes on), and each student's place follows the others' placements."""
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        students = [join_as(teacher, name) for name in ("Ann", "Ben", "Cy")]
        run_until(loop, lambda: len(teacher.state.students) == 3)
        finish_game(teacher, students, last=students[:1])
        run_until(loop, lambda: 'data-waiting="2"' in teacher.progress.value)
        assert "2 students are still placing the last number" in teacher.progress.value
        assert teacher.results.layout.display == "none" and not teacher.results_shown
        assert teacher.show_now_button.layout.display is None
        run_until(loop, lambda: "still placing" in students[0].status.value)
        for page in students[1:]:
            page.click(cell_name(next(c for c in range(25)
                                      if page.state.students[page.pid].grid[c] is None)))
        run_until(loop, lambda: teacher.results_shown)
        assert teacher.show_now_button.layout.display == "none"
        ranks = {s.name: s.rank for s in teacher.state.standings()}
        # Ann placed first: her page heard the others' last placements
        for page in students:
            name = page.state.students[page.pid].name
            run_until(loop, lambda page=page, name=name:
                      f'data-rank="{ranks[name]}"' in page.status.value)
            assert "still placing" not in page.status.value
        # a latecomer after the last number waits for the next game: not in its ranking
        late = join_as(teacher, "Dora")
        assert late.state is not None and "next game" in late.status.value
        late.click("c3")
        assert late.state.students[late.pid].cells == []
        run_until(loop, lambda: "Dora" in teacher.students.value)
        assert "Dora" not in teacher.state.csv() and len(teacher.state.standings()) == 3
        teacher.again()
        run_until(loop, lambda: "Wait for the teacher" in late.status.value)
        teacher.call()
        run_until(loop, lambda: len(late.state.calls) == 1)
        late.click("c3")
        assert late.state.students[late.pid].cells == [12]
        # the teacher goes on without a student who does not place the last number
        for _k in range(24):
            teacher.call()
        for page in [*students, late]:  # all but the latecomer place every number
            page.state = page.room.refresh(page.state)
            while len(page.state.students[page.pid].cells) < (24 if page is late else 25):
                page.click(cell_name(next(c for c in range(25)
                                          if page.state.students[page.pid].grid[c] is None)))
        run_until(loop, lambda: 'data-waiting="1"' in teacher.progress.value)
        assert not teacher.results_shown
        teacher.show_now_button.click()
        assert teacher.results_shown and teacher.ranking_box.layout.display is None

    in_thread(body)


@pytest.mark.parametrize("lang", ["en", "pl", "cs", "ru"])
def test_a_damaged_pass_is_refused_in_a_sentence_of_the_pages_language(
        in_thread: Callable[..., None], lang: str) -> None:
    """Whatever a browser kept, a page refuses it in a sentence of its language that says
    what to do, never in a parser's words."""
    def body(loop: asyncio.AbstractEventLoop) -> None:
        set_language(lang)
        try:
            damaged = ["not JSON", "[1, 2, 3]", '{"code": 7}', '{"code": "K3M9T", "pid": []}',
                       "{" * 50_000, json.dumps({"code": "ABCDE", "pid": "x", "token": "y"})]
            for kept in damaged:
                for page in (JoinPage(code=""), TablePage(), TeacherPage()):
                    if isinstance(page, TeacherPage):
                        page.resume(kept)
                        shown = page.notice.value
                    else:
                        page.rejoin(kept)
                        shown = page.message.value
                    text = html.unescape(re.sub("<[^>]+>", "", shown))
                    assert page.state is None and text, (kept, type(page).__name__)
                    assert text[0].isupper(), text
                    for python in ("JSON", "line 1", "indices", "not str", "Expecting",
                                   "kept pass", "NoneType", "object"):
                        assert python not in text, text
                    if lang == "ru":
                        assert re.search("[а-я]{4}", text), text
                    elif lang != "en":
                        assert "pass" not in text and "class" not in text, text
        finally:
            set_language("en")

    in_thread(body)


def test_a_tap_out_of_turn_says_whose_turn_it_is(in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        ann, ben = TablePage(), TablePage()
        ann.name_input.value, ann.game_choice.value = "Ann", "halma"
        ann.open_button.click()
        ben.name_input.value, ben.table_input.value = "Ben", ann.state.code
        ben.join_button.click()
        assert ben.state is not None, ben.message.value
        ann.start_button.click()
        run_until(loop, lambda: ben.state.started)
        assert ben.state.to_move == 0
        ben.click("a1")
        assert "It is Ann's turn: wait for your turn" in html.unescape(ben.message.value)
        assert ben.state.ply == 0

    in_thread(body)


def test_the_join_address_carries_no_language() -> None:
    set_language("pl")
    try:
        address = live.join_address("http://127.0.0.1:8866/voila/render/teacher.ipynb?lang=pl",
                                    "K3M9T", lan_host="10.0.0.7")
    finally:
        set_language("en")
    assert address == "http://10.0.0.7:8866/voila/render/join.ipynb?code=K3M9T"
