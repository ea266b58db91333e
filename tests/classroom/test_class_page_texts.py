"""What the class pages say and show, beyond the rules: one Russian register for students,
each language's quotation marks around a typed code, a join address that breaks only between
its parts, a neutral "joined" before the first number, a results close-up without an empty
card box, and the whole session (every game and the totals) as one CSV."""

from __future__ import annotations

import asyncio
import csv
import html
import io
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

import pytest
from pages_support import finish_game, join_as, opened_class, run_until

from mathgames.classroom.store import StoreError, normalize_code
from mathgames.core.i18n import LANGUAGES, QUOTES, in_quotes, set_language
from mathgames.core.po import parse_po
from mathgames.pages.live import address_breaks

LOCALE = Path(__file__).resolve().parents[2] / "mathgames" / "locale"
#: The catalogs of the pages a student sees: the landing page and header (app, core), the
#: class pages (join, table: classroom) and the game pages. The lessons' texts
#: (lessons.po, notebooks/explore) follow the same register; their own tests check them.
STUDENT_DOMAINS = ["app", "core", "classroom", "halma", "matematiko", "mosaic", "triomino"]
#: Russian words that address one person informally ("ты"): the pronoun and its forms.
INFORMAL_WORDS = re.compile(r"(?<!\w)(ты|тебя|тебе|тобой|тво[йяеёи]\w*)(?!\w)", re.I)
#: A present-tense verb said to "ты" (-ешь, -ишь: "можешь", "играешь").
INFORMAL_VERB = re.compile(r"(?<!\w)\w{2,}(ешь|ёшь|ишь)(?!\w)", re.I)
WORD = re.compile(r"\w+")


def russian_texts() -> dict[str, list[str]]:
    """Every Russian translation of the student-facing catalogs, by domain."""
    texts = {}
    for domain in STUDENT_DOMAINS:
        po = LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.po"
        entries = parse_po(po.read_text(encoding="utf-8"), str(po))
        texts[domain] = [form for forms in entries.values() for form in forms if form]
    return texts


def test_russian_pages_say_vy_to_a_student_never_ty() -> None:
    """One register: "вы" (as the game pages, the landing page and the lessons' student
    texts mostly do). An informal imperative is found by its formal twin: "проверь" is
    informal where "проверьте" is a word of the catalogs."""
    texts = russian_texts()
    words = {w.lower() for forms in texts.values() for text in forms
             for w in WORD.findall(text)}
    formal = {w for w in words if w.endswith(("ите", "йте", "ьте"))}
    informal = []
    for domain, forms in texts.items():
        for text in forms:
            twins = [w for w in WORD.findall(text) if w.lower() + "те" in formal]
            found = INFORMAL_WORDS.findall(text) + twins + [
                m.group(0) for m in INFORMAL_VERB.finditer(text)]
            if found:
                informal.append(f"{domain}: {found} in {text!r}")
    assert informal == [], "\n".join(informal)
    assert {"введите", "проверьте", "подождите"} <= formal  # what the check relies on


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_typed_code_is_quoted_with_the_languages_marks(lang: str) -> None:
    opening, closing = QUOTES[lang]
    previous = set_language(lang)
    try:
        for typed, shown in (("k39t", "k39t"), ("B0SL1", "B0SL1")):
            with pytest.raises(StoreError) as refused:
                normalize_code(typed)
            said = str(refused.value)
            assert f"{opening}{shown}{closing}" in said and "'" not in said, said
        assert in_quotes("x") == f"{opening}x{closing}"
    finally:
        set_language(previous)


def test_the_join_address_breaks_only_after_a_slash_a_question_mark_or_an_ampersand(
        in_thread: Callable[..., None]) -> None:
    url = "http://192.168.1.20:8866/voila/render/join.ipynb?code=DXCWP"
    shown = address_breaks(url)
    assert shown.replace("<wbr>", "") == url
    # a break only after those characters, never in "//" or inside a word
    assert re.findall(r"(.)<wbr>", shown) == ["/", "/", "/", "/", "?"]
    assert "join.ipynb?<wbr>code=DXCWP" in shown

    def body(_loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        link = re.search(r'<a href="([^"]+)"[^>]*>(.*?)</a>', teacher.top.value)
        assert link is not None and "<wbr>" in link.group(2)
        assert html.unescape(link.group(2).replace("<wbr>", "")) == html.unescape(link.group(1))
        for before in re.findall(r"(.)<wbr>", link.group(2)):
            assert before in "/?&;", link.group(2)  # (";": the end of "&amp;")
        # the box breaks no word itself (the browser's "break-all" cut "?c / ode=")
        from mathgames.pages.teacher import STYLE
        rule = re.search(r"\.mg-address \{([^}]*)\}", STYLE)
        assert rule is not None and "break-all" not in rule.group(1)
        assert "word-break: keep-all" in rule.group(1)
        teacher.close()

    in_thread(body)


def test_names_show_joined_until_the_first_number_is_called(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        students = [join_as(teacher, name) for name in ("Ann", "Ben")]
        run_until(loop, lambda: len(teacher.state.students) == 2)
        names = teacher.students.value
        assert names.count('data-state="joined"') == 2, names
        assert "✓" not in names and "(0)" not in names and 'aria-label="placed"' not in names
        assert names.count('aria-label="joined"') == 2
        teacher.call()
        assert teacher.students.value.count('data-state="thinking"') == 2
        for page in students:
            page.close()
        teacher.close()

    in_thread(body)


def csv_links(export: str) -> dict[str, list[dict[str, str]]]:
    """The CSV files the teacher's page offers: {file name: rows}."""
    found = {}
    for name, href in re.findall(r'download="([^"]+)" href="([^"]+)"', export):
        text = unquote(html.unescape(href).partition(",")[2])
        found[html.unescape(name)] = list(csv.DictReader(io.StringIO(text)))
    return found


def test_the_results_offer_every_game_and_the_totals_as_one_csv_and_no_card_box(
        in_thread: Callable[..., None]) -> None:
    def body(loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        code = teacher.state.code
        students = [join_as(teacher, name) for name in ("Ann", "Ben", "Cy")]
        run_until(loop, lambda: len(teacher.state.students) == 3)
        finish_game(teacher, students, students)
        run_until(loop, lambda: teacher.results_shown)
        # the winner's grid up close, and every small grid: no empty box for a card to place
        assert "mg-number" in teacher.closeup.value
        assert "mg-current-card" not in teacher.closeup.value
        assert "mg-current-card" not in teacher.grids.value
        links = csv_links(teacher.export.value)
        assert list(links) == [f"class-{code}.csv"]  # one game: its results
        first = {row["name"]: row for row in links[f"class-{code}.csv"]}
        teacher.again_button.click()
        teacher.again_confirm.yes_button.click()
        run_until(loop, lambda: all(p.state.game == 2 for p in students))
        finish_game(teacher, students, students)
        run_until(loop, lambda: teacher.results_shown)
        state = teacher.state
        links = csv_links(teacher.export.value)
        assert list(links) == [f"class-{code}-2.csv", f"class-{code}-all.csv"]
        assert "Download all 2 games and the totals (CSV)" in teacher.export.value
        rows = links[f"class-{code}-all.csv"]
        assert [row["game"] for row in rows] == ["1"] * 3 + ["2"] * 3 + ["total"] * 3
        for row in rows[:3]:  # the first game as its own CSV had it, every cell
            assert row == {"game": "1", **first[row["name"]]}
        second = {row["name"]: row for row in links[f"class-{code}-2.csv"]}
        for row in rows[3:6]:
            assert row == {"game": "2", **second[row["name"]]}
        totals = [(row["rank"], row["name"], row["points"]) for row in rows[6:]]
        assert totals == [(str(t.rank), t.name, str(t.points)) for t in state.totals()]
        for row in rows[6:]:  # = the first game's points and the second's
            assert int(row["points"]) == (int(first[row["name"]]["points"])
                                          + int(second[row["name"]]["points"]))
        for page in students:
            page.close()
        teacher.close()

    in_thread(body)


def test_a_card_typed_wrong_is_quoted_in_the_pages_language(
        in_thread: Callable[..., None]) -> None:
    def body(_loop: asyncio.AbstractEventLoop) -> None:
        teacher = opened_class()
        try:
            for lang in sorted(LANGUAGES):
                set_language(lang)
                teacher.typed.value = "x7"
                teacher.typed_button.click()
                said = html.unescape(teacher.message.value)
                assert in_quotes("x7") in said and "'" not in said, said
        finally:
            set_language("en")
            teacher.close()

    in_thread(body)
