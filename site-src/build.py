"""Build the static site (``make site``): the games' pages running in the browser with Pyodide.

Everything comes from the package registries and this checkout: Pyodide's core, the ipywidgets
page manager, anywidget's front end and esbuild from npm (``package.json``, pinned by
``package-lock.json``), the wheels the
pages load from PyPI (``wheels.txt``), and mathgames' own wheel built from the checkout. The
downloads are kept in ``.site-cache/`` and fetched again only when their list changes; the
site is built again only when something it holds changed (its fingerprint, ``site/.inputs``).

    python site-src/build.py [--out site] [--server URL] [--force]

``--server`` (or ``MATHGAMES_SERVER_URL``) is a class server's address: the site then offers
"Join a class" and opens the lessons there; without it the lessons open on Binder.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "site-src"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The lesson that runs in the browser, and the wheels only it loads (Babel writes its
#: numbers in each language, mistune its printable worksheet; a game's page does without
#: their 11 MB).
LESSON_ONLY = ("babel-", "mistune-")
#: What the site is made of: a change to any of these builds it again.
INPUTS = ("mathgames", "notebooks", "site-src", "pyproject.toml", ".gitignore")


def run(command: list[str], **kwargs: object) -> None:
    """Run a build step; stop the build with the step's own words when it fails."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)  # type: ignore[call-overload]


def fingerprint(server: str) -> str:
    """A hash of every file the site is built from (and of the class server's address)."""
    digest = hashlib.sha256(server.encode())
    for top in INPUTS:
        path = ROOT / top
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if "__pycache__" in file.parts or file.suffix in (".pyc", ".mo"):
                continue
            digest.update(str(file.relative_to(ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def npm_packages(cache: Path) -> Path:
    """``node_modules`` as package-lock.json pins it, installed again only when it changed."""
    if shutil.which("npm") is None:
        sys.exit("make site needs Node.js and npm (Debian: apt-get install nodejs npm).")
    folder = cache / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    files = ("package.json", "package-lock.json")
    wanted = "".join((SOURCE / name).read_text() for name in files)
    stamp = folder / ".installed"
    if not (stamp.exists() and stamp.read_text() == wanted):
        for name in files:
            shutil.copy2(SOURCE / name, folder / name)
        # exactly the versions of package-lock.json; no package's install script runs
        run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=folder)
        stamp.write_text(wanted)
    return folder / "node_modules"


def wheels(cache: Path) -> list[Path]:
    """The wheels of wheels.txt, downloaded again only when the list changed."""
    folder = cache / "wheels"
    wanted = (SOURCE / "wheels.txt").read_text()
    stamp = folder / ".downloaded"
    if not (stamp.exists() and stamp.read_text() == wanted):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--python-version", "3.12", "--platform", "any",
             "--implementation", "py", "-d", str(folder), "-r", str(SOURCE / "wheels.txt")])
        stamp.write_text(wanted)
    return sorted(folder.glob("*.whl"))


def own_wheel(into: Path) -> Path:
    """mathgames' wheel, built from this checkout (its translations compiled first)."""
    run([sys.executable, "-m", "mathgames.core.i18n"], cwd=ROOT)
    with tempfile.TemporaryDirectory() as scratch:
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", scratch,
             str(ROOT)])
        built = next(Path(scratch).glob("mathgames-*.whl"))
        return Path(shutil.copy2(built, into / built.name))


def precompiled(into: Path, modules: Path, wheel_files: list[Path], server: str) -> str:
    """The game pages' modules compiled ahead, by Pyodide's own Python under Node
    (mathgames/site/precompile.py), in one zip of ``into``; its name (by its content: a
    browser never mixes one build's bytecode with another's source)."""
    pages = [[cell["code"] for cell in page_cells(notebook) if "code" in cell]
             for notebook in site_pages("game")]
    with tempfile.TemporaryDirectory() as scratch:
        spec, target = Path(scratch) / "pages.json", Path(scratch) / "compiled.zip"
        spec.write_text(json.dumps({"environment": page_environment(server), "pages": pages}))
        run(["node", str(SOURCE / "precompile.mjs"), str(spec), str(target),
             *map(str, wheel_files)], cwd=modules.parent)
        name = f"compiled-{hashlib.sha256(target.read_bytes()).hexdigest()[:12]}.zip"
        shutil.copy2(target, into / name)
    return name


def site_pages(kind: str) -> list[str]:
    """The notebooks of one kind that the static site has (the one page list says which)."""
    from mathgames.page_list import PAGES

    return [p.notebook for p in PAGES if p.kind == kind and p.site_file]


def page_environment(server: str) -> dict[str, str]:
    """The environment a page's Python runs in (as the app's kernels have it)."""
    return {"MATHGAMES_STATIC_SITE": "1", "MATHGAMES_SERVER_URL": server}


def page_cells(notebook: str) -> list[dict[str, str]]:
    """A page's cells as Voila shows them: code to run, and text (Markdown, as HTML)."""
    import mistune

    cells = json.loads((ROOT / "notebooks" / notebook).read_text())["cells"]
    return [{"code": "".join(c["source"])} if c["cell_type"] == "code" else
            {"html": str(mistune.html("".join(c["source"])))}
            for c in cells if c["cell_type"] in ("code", "markdown")]


def in_languages(make: object) -> dict[str, object]:
    """``make()`` in each of the app's languages (the app's own catalogs)."""
    from mathgames.core.i18n import LANGUAGES, set_language

    kept = set_language("en")
    try:
        return {code: (set_language(code), make())[1] for code in LANGUAGES}  # type: ignore[operator]
    finally:
        set_language(kept)


def python_page(notebook: str, wheel_names: list[str], server: str) -> str:
    """A page that runs Python: its cells (a lesson's in each language), the wheels to load,
    the words shown while loading."""
    from mathgames.core.i18n import LANGUAGES, translator
    from mathgames.page_list import page, page_path, page_title

    _ = translator("app")
    # a lesson reads its own notebook (its printable worksheet is made from its text): the
    # page writes it, in the page's language, where the lesson runs, as Voila would find it
    files = ({code: {Path(notebook).name: (ROOT / "notebooks" / page_path(notebook, code))
                     .read_text(encoding="utf-8")} for code in LANGUAGES}
             if page(notebook).kind == "lesson" else {})
    config = {
        "cells": {code: page_cells(page_path(notebook, code)) for code in LANGUAGES},
        "files": files,
        "wheels": wheel_names,
        "environment": page_environment(server),
        "titles": in_languages(lambda: page_title(notebook)),
        "loading": in_languages(lambda: _("Starting Python in your browser…")),
    }
    script = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(page_title(notebook))}</title>
<link rel="stylesheet" href="app.css">
<style>body{{margin:0 auto;max-width:1100px;padding:8px;font-family:sans-serif}}
.mg-stream{{font-size:14px;margin:4px 0}}#mg-status{{font-size:18px;padding:24px 8px}}
#mg-status:empty{{display:none}}
.mg-error{{white-space:pre-wrap;color:#a00}}</style>
<script src="pyodide/pyodide.js"></script>
<script>// Python starts while the page's script (app.js) loads
globalThis.mgPyodide = loadPyodide({{indexURL: new URL("pyodide/", document.baseURI).href}});
</script>
<script type="application/json" id="mg-config">{script}</script>
<script type="module" src="app.js"></script>
</head><body><main id="mg-page"><p id="mg-status" role="status"></p></main></body></html>
"""


def landing_page(server: str) -> str:
    """The static landing page: the games, and for each lesson where it runs."""
    from mathgames.core.i18n import LANGUAGES, translator
    from mathgames.core.svg import esc
    from mathgames.page_list import PAGES, SITE_PAGES
    from mathgames.pages.header import card_html, header_html

    _ = translator("app")

    def section() -> str:
        cards = []
        for kind, heading in (("game", _("Games")), ("class", _("Play together")),
                              ("lesson", _("Lessons"))):
            if kind == "class" and not server:
                continue  # the live classroom needs a class server
            away = f'<p class="mg-needs-server">{esc(_("needs the app server or Binder"))}</p>'
            row = "".join(card_html(page, "" if page.notebook in SITE_PAGES else away)
                          for page in PAGES if page.kind == kind)
            cards.append(f'<h2 class="mg-section">{esc(heading)}</h2>'
                         f'<div class="mg-cards">{row}</div>')
        intro = _("The games and the mosaics lesson run in your browser: nothing to install, "
                  "and they keep working offline once loaded. The other lessons and the live "
                  "classroom need the app server or Binder.")
        return (header_html("index.ipynb", "") +
                f'<div class="mg-page"><p style="font-size:17px">{esc(intro)}</p>'
                + "".join(cards) + "</div>")

    sections = in_languages(section)
    body = "".join(f'<div class="mg-landing" data-lang="{code}" lang="{code}"'
                   f'{"" if code == "en" else " hidden"}>{sections[code]}</div>'
                   for code in LANGUAGES)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Maths games</title>
<style>body{{margin:0 auto;max-width:1100px;padding:8px;font-family:sans-serif}}
.mg-needs-server{{font-style:italic;color:#555}}</style>
</head><body>{body}
<script>
// ?lang= picks the language, as on the app's own landing page
const lang = new URLSearchParams(location.search).get("lang") || "en";
for (const part of document.querySelectorAll(".mg-landing")) {{
  part.hidden = part.dataset.lang !== lang;
  if (!part.hidden) document.documentElement.lang = lang;
}}
</script></body></html>
"""


def build(out: Path, cache: Path, server: str) -> None:
    """Build the whole site into ``out`` (emptied first)."""
    os.environ["MATHGAMES_STATIC_SITE"] = "1"
    os.environ["MATHGAMES_SERVER_URL"] = server
    modules = npm_packages(cache)
    downloaded = wheels(cache)
    scratch = out.with_name(out.name + ".building")
    shutil.rmtree(scratch, ignore_errors=True)
    (scratch / "pyodide").mkdir(parents=True)
    (scratch / "wheels").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, scratch / "pyodide" / name)
    # the pages load no package of Pyodide's own (every wheel is a file of the site): Pyodide
    # reads its lock file as it starts, so it gets the lock's description without the list of
    # 351 packages (110 kB less to fetch and parse)
    lock = json.loads((scratch / "pyodide" / "pyodide-lock.json").read_text())
    (scratch / "pyodide" / "pyodide-lock.json").write_text(
        json.dumps({"info": lock["info"], "packages": {}}))
    names = [shutil.copy2(w, scratch / "wheels" / w.name) and w.name for w in downloaded]
    names.append(own_wheel(scratch / "wheels").name)
    # the bytecode of what the game pages import, unpacked over the wheels (the lesson's page
    # loads it too: its first cells import the same)
    games_wheels = [scratch / "wheels" / name for name in names
                    if not name.startswith(LESSON_ONLY)]
    names.append(precompiled(scratch / "wheels", modules, games_wheels, server))
    run([str(modules / ".bin" / "esbuild"), str(SOURCE / "main.js"), "--bundle",
         "--format=esm", "--minify", "--log-level=warning", f"--outfile={scratch / 'app.js'}",
         *(f"--loader:.{ext}=file" for ext in ("woff", "woff2", "ttf", "eot", "svg"))],
        env={**os.environ, "NODE_PATH": str(modules)}, cwd=modules.parent)
    from mathgames.page_list import SITE_PAGES

    games = [name for name in names if not name.startswith(LESSON_ONLY)]
    for notebook in site_pages("game"):
        (scratch / SITE_PAGES[notebook]).write_text(python_page(notebook, games, server))
    for notebook in site_pages("lesson"):
        (scratch / SITE_PAGES[notebook]).write_text(python_page(notebook, names, server))
    (scratch / "index.html").write_text(landing_page(server))
    shutil.rmtree(out, ignore_errors=True)
    scratch.rename(out)


def main() -> None:
    """``make site``: build the site when something it holds changed (or with ``--force``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site")
    parser.add_argument("--cache", type=Path, default=ROOT / ".site-cache")
    parser.add_argument("--server", default=os.environ.get("MATHGAMES_SERVER_URL", ""))
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    wanted = fingerprint(args.server)
    stamp = args.out / ".inputs"
    if not args.force and stamp.exists() and stamp.read_text() == wanted:
        print(f"{args.out}: up to date")
        return
    build(args.out.resolve(), args.cache.resolve(), args.server)
    stamp.write_text(wanted)
    print(f"{args.out}: built")


if __name__ == "__main__":
    main()
