"""Which landing page offers what: the static site's links, its "Join a class", and the
class server's line naming the static site."""

from __future__ import annotations

import pytest

from mathgames.pages.header import header_html, landing, link
from mathgames.site.links import BINDER_URL


@pytest.fixture
def static(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("MATHGAMES_STATIC_SITE", "1")
    monkeypatch.delenv("MATHGAMES_SERVER_URL", raising=False)
    return monkeypatch


def test_site_links_stay_on_the_site_for_games_and_go_to_binder_for_the_rest(
        static: pytest.MonkeyPatch) -> None:
    assert link("chinese_checkers.ipynb", "ru") == "chinese_checkers.html?lang=ru"
    assert link("index.ipynb", "en", here="halma.ipynb") == "index.html?lang=en"
    assert link("explore/mosaics.ipynb", "pl") == "lesson-mosaics.html?lang=pl"
    lesson = link("explore/board_geometry.ipynb", "pl")
    assert lesson.startswith(BINDER_URL + "?urlpath=voila/render/notebooks/explore/pl/board_geo")
    assert 'class="mg-join-link"' not in header_html("halma.ipynb")


def test_a_class_server_named_at_the_build_brings_join_a_class(
        static: pytest.MonkeyPatch) -> None:
    static.setenv("MATHGAMES_SERVER_URL", "http://10.0.0.2:8866/")
    bar = header_html("halma.ipynb")
    assert 'class="mg-join-link" href="http://10.0.0.2:8866/voila/render/join.ipynb?lang=en"' in bar
    assert link("explore/board_geometry.ipynb", "en") == (
        "http://10.0.0.2:8866/voila/render/explore/board_geometry.ipynb?lang=en")


def test_the_class_servers_landing_page_names_the_static_site_only_when_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MATHGAMES_STATIC_SITE", raising=False)
    monkeypatch.delenv("MATHGAMES_SITE_URL", raising=False)
    texts = lambda: " ".join(getattr(part, "value", "") for part in landing().children)  # noqa: E731
    assert "mg-static-site" not in texts()
    assert link("halma.ipynb", "en") == "halma.ipynb?lang=en"  # the server's own links
    monkeypatch.setenv("MATHGAMES_SITE_URL", "https://games.example.org/")
    assert 'href="https://games.example.org/"' in texts()
