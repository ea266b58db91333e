"""The page configuration is read once per server, and each page gets its own copy."""

from __future__ import annotations

import logging

import voila.handler
from voila.configuration import VoilaConfiguration

from mathgames.server.render import cache_page_config


def test_each_page_gets_an_equal_copy_of_the_servers_one_page_config(monkeypatch) -> None:
    reads: list[str] = []
    plain = voila.handler.get_page_config

    def counted(**kwargs: object) -> dict:
        reads.append(str(kwargs["base_url"]))
        return plain(**kwargs)

    monkeypatch.setattr(voila.handler, "get_page_config", counted)
    monkeypatch.setattr(voila.handler, "_mathgames_cached_config", False, raising=False)
    cache_page_config()
    settings: dict = {}
    configuration = VoilaConfiguration()
    log = logging.getLogger("test")
    first = voila.handler.get_page_config("/", settings, log, configuration)
    first["jupyterLabTheme"] = "dark"  # what Voila adds to its page's copy
    first["federated_extensions"].clear()
    second = voila.handler.get_page_config("/", settings, log, configuration)
    assert reads == ["/"]
    assert second == plain(base_url="/", settings=settings, log=log,
                           voila_configuration=configuration)
    assert "jupyterLabTheme" not in second and second is not first
    # another server (its own settings and configuration) reads its own
    voila.handler.get_page_config("/", {}, log, VoilaConfiguration())
    voila.handler.get_page_config("/class/", settings, log, configuration)
    assert reads == ["/", "/", "/class/"]
