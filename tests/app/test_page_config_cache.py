"""The page configuration is read once per server, and each page gets its own copy; the
page templates are compiled once per server, and their code is shared as it is."""

from __future__ import annotations

import logging

import jinja2
import pytest
import voila.handler
from voila.configuration import VoilaConfiguration

from mathgames.server.render import TemplateCache, cache_page_config


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


def test_each_page_environment_reuses_the_templates_compiled_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Voila makes a Jinja environment for every page: a template is compiled for the first
    page only, and the next pages take its code as it is (not bytes to read back)."""
    compiled: list[str] = []
    read_back: list[int] = []
    compile_plain = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: str, *args: object, **kwargs: object):
        compiled.append(source)
        return compile_plain(self, source, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    monkeypatch.setattr(jinja2.bccache.Bucket, "bytecode_from_string",
                        lambda self, string: read_back.append(1))
    cache = TemplateCache()
    templates = {"page.html": "{% extends 'base.html' %}{% block b %}{{ n }}{% endblock %}",
                 "base.html": "<p>{% block b %}{% endblock %}</p>"}
    pages = [jinja2.Environment(loader=jinja2.DictLoader(templates), bytecode_cache=cache)
             .get_template("page.html").render(n=n) for n in range(3)]
    assert pages == ["<p>0</p>", "<p>1</p>", "<p>2</p>"]
    assert len(compiled) == 2 and read_back == []  # each template once, for the first page
    templates["base.html"] = "<div>{% block b %}{% endblock %}</div>"  # edited: compiled anew
    edited = jinja2.Environment(loader=jinja2.DictLoader(templates), bytecode_cache=cache)
    assert edited.get_template("page.html").render(n=3) == "<div>3</div>"
    assert len(compiled) == 3
