"""The lessons render in Voila without errors and their controls respond.

nbval already checks every printed result; these tests check what only a browser
shows: the notebooks run in Voila, the widgets appear, and moving a control
changes what the chart or board shows. One copy per language checks the header.
"""

from __future__ import annotations

import pytest

from tests.lessons.conftest import answer_up_to

pytestmark = pytest.mark.browser


def ask_for_the_answer(page, key: str) -> None:
    """The class skips the guesses up to ``key``: the cells answering it appear."""
    answer_up_to(page, key)


def test_triomino_lesson_slider_changes_the_exact_probability(notebook_page):
    page = notebook_page("explore/triomino_combinatorics.ipynb", wait_for=".mg-lesson-predict")
    ask_for_the_answer(page, "triple")
    readout = page.locator(".mg-lesson-readout").first
    assert "9796/9911" in readout.inner_text()  # 4 players, the default
    page.locator(".mg-lesson-players .noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "document.querySelector('.mg-lesson-readout').innerText.includes('16103/16218')")
    assert page.mg_errors == []


def test_matematiko_lesson_chances_panel_answers_a_new_line(notebook_page):
    page = notebook_page("explore/matematiko_probabilities.ipynb",
                         wait_for=".mg-lesson-predict")
    ask_for_the_answer(page, "chances")
    page.locator(".mg-lesson-answer").wait_for()
    assert "1/23" in page.locator(".mg-lesson-answer").inner_text()  # 7 7 7 after 7 7 7 3 9 12
    boxes = page.locator(".mg-lesson-input input[type=text]")
    boxes.nth(0).fill("1 1 1 13")
    boxes.nth(0).press("Enter")
    boxes.nth(1).fill("1 1 1 13 5 6")
    boxes.nth(1).press("Enter")
    page.wait_for_function(
        "document.querySelector('.mg-lesson-answer').innerText.includes('3/46')")
    assert page.mg_errors == []


@pytest.mark.parametrize(("language", "message"), [
    ("en", "“x” is not a whole number"),
    ("pl", "„x” nie jest liczbą całkowitą"),
    ("cs", "„x“ není celé číslo"),
    ("ru", "«x» — не целое число"),
])
def test_bad_input_in_the_chances_panel_gets_a_translated_message(notebook_page, language,
                                                                   message):
    name = ("explore/matematiko_probabilities.ipynb" if language == "en"
            else f"explore/{language}/matematiko_probabilities.ipynb")
    page = notebook_page(name, lang=language, wait_for=".mg-lesson-predict")
    ask_for_the_answer(page, "chances")
    box = page.locator(".mg-lesson-input input[type=text]").nth(0)
    box.fill("7 x 99")
    box.press("Enter")
    answer = page.locator(".mg-lesson-answer")
    answer.filter(has_text=message).wait_for()
    assert "invalid literal" not in answer.inner_text()
    assert page.mg_errors == []


def test_matematiko_editable_grid_scores_live_and_answers_stay_hidden(notebook_page):
    page = notebook_page("explore/matematiko_probabilities.ipynb",
                         wait_for=".mg-lesson-predict")
    ask_for_the_answer(page, "best")
    page.locator(".mg-lesson-editor").wait_for()
    report = page.locator(".mg-lesson-editor .mg-lesson-grid-score")
    assert "Total: 1,820 points" in report.inner_text()
    assert "allowed 1,920" in report.inner_text()
    # cell 11 (row 3, column 1) holds 9: a 13 there makes five 13s, which the deck cannot have
    page.locator(".mg-lesson-editor select").nth(10).select_option(label="13")
    report.filter(has_text="too many 13").wait_for()
    page.locator(".mg-lesson-editor select").nth(10).select_option(label="9")
    report.filter(has_text="Total: 1,820 points").wait_for()
    # the students' answers are in closed <details> until opened
    answer = "192/54145 ≈ 0.0035 against 31/21658"
    details = page.locator("details").nth(1)   # the first question (0 is the warm-up)
    assert details.get_attribute("open") is None
    assert answer not in page.locator("body").inner_text()   # innerText skips hidden text
    details.locator("summary").click()
    assert details.get_attribute("open") is not None
    assert answer in page.locator("body").inner_text()
    assert page.mg_errors == []


def test_a_prediction_shows_the_answer_beside_the_guess(notebook_page):
    page = notebook_page("explore/triomino_combinatorics.ipynb", wait_for=".mg-lesson-predict")
    predict = page.locator(".mg-lesson-predict").first
    predict.locator(".mg-lesson-guess input").fill("60")
    predict.locator(".mg-lesson-check").click()
    predict.locator(".mg-lesson-prediction").filter(has_text="Your guess: 60").wait_for()
    # typed key by key and Enter: the guess checked is the whole of it
    predict.locator(".mg-lesson-guess input").fill("")
    predict.locator(".mg-lesson-guess input").press_sequentially("5600")
    predict.locator(".mg-lesson-guess input").press("Enter")
    predict.locator(".mg-lesson-prediction").filter(has_text="Your guess: 5600").wait_for()
    assert "56" in predict.locator(".mg-lesson-prediction").inner_text()
    assert page.mg_errors == []


@pytest.mark.parametrize("lesson", ["triomino_combinatorics", "matematiko_probabilities",
                                    "board_geometry"])
def test_each_lesson_has_a_teacher_page_with_a_route_and_answers(notebook_page, lesson):
    page = notebook_page(f"explore/{lesson}_teacher.ipynb", wait_for=".mg-lesson-game-link")
    text = page.locator("body").inner_text()
    assert "45-minute route" in text and "Answers for the teacher" in text
    assert page.mg_errors == []


def test_geometry_lesson_replays_the_crossing_move_by_move(notebook_page):
    page = notebook_page("explore/board_geometry.ipynb", wait_for=".mg-lesson-predict-crossing")
    answer_up_to(page)   # the replay is the lesson's last part
    page.locator(".mg-lesson-next").first.wait_for()
    board = page.locator(".mathgames-board svg").first
    start = board.inner_html()
    for _ in range(2):
        page.locator(".mg-lesson-next button, button.mg-lesson-next").first.click()
    page.wait_for_function(
        "document.querySelector('.mg-lesson-caption').innerText.includes('2. a2-a4-f6')")
    assert board.inner_html() != start
    page.locator(".mg-lesson-previous button, button.mg-lesson-previous").first.click()
    page.wait_for_function(
        "document.querySelector('.mg-lesson-caption').innerText.includes('1. a4-f5')")
    assert page.mg_errors == []


def test_a_lesson_links_to_its_game_and_the_game_back_to_the_lesson(notebook_page):
    page = notebook_page("explore/pl/triomino_combinatorics.ipynb", lang="pl",
                         wait_for=".mg-lesson-game-link")
    assert page.locator("a.mg-lesson-game").first.get_attribute("href") == (
        "../../triomino.ipynb?lang=pl")
    page = notebook_page("triomino.ipynb", lang="pl", wait_for=".mg-lesson-game-link")
    link = page.locator("a.mg-lesson-game").first
    assert link.get_attribute("href") == "explore/pl/triomino_combinatorics.ipynb?lang=pl"
    assert "Matematyka tej gry" in link.inner_text()
    assert page.mg_errors == []


def test_the_teacher_calls_a_round_and_a_student_runs_a_simulation(notebook_page):
    page = notebook_page("explore/matematiko_probabilities.ipynb", wait_for=".mg-lesson-call")
    page.locator("button.mg-lesson-call").click()
    ask_for_the_answer(page, "expectation")   # the line simulation follows that question
    page.locator(".mg-lesson-calls").filter(has_text="Call 1 of 25").wait_for()
    simulation = page.locator(".mg-lesson-simulation").first
    trials = simulation.locator(".mg-lesson-trials input")
    trials.fill("2000")
    trials.press("Enter")
    simulation.locator("button.mg-lesson-run").click()
    simulation.locator(".mg-lesson-trials-status").filter(has_text="2,000 trials run").wait_for()
    assert page.mg_errors == []
