# Two commands set everything up on a fresh machine (Debian, python3, make):
#   make app    serve the Voila app on http://localhost:8866 (app pages only, loopback)
#   make test   ruff and the whole pytest suite (unit, widget, notebooks, browser);
#               installs Chromium, PostgreSQL and HAProxy first when missing (as root),
#               or says how
# Both create .venv when it is missing and reinstall only when pyproject.toml changed.
# For a class:  make app CLASSROOM=1 [PASSWORD=secret] [MAX_KERNELS=40] [TRUSTED_PROXY=10.0.0.2]
#               (make app is `mathgames app`, with CLASSROOM=1 `mathgames class`)
# Developers:   make lab   JupyterLab on http://127.0.0.1:8888 with a token
# Static site:  make site  the games in the browser (Pyodide) in site/, for any web host

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8866
LAB_PORT ?= 8888
CLASSROOM ?=
PASSWORD ?=
MAX_KERNELS ?=
TRUSTED_PROXY ?=
PYTEST_ARGS ?=
# pytest workers (pytest-xdist; each test file stays on one worker): 0 runs in one process.
# Three on two cores: the suite waits more than it computes (servers, browsers, timers), and a
# third worker uses that time (14.4 minutes with two on a fresh 2-core clone, 11.1-12.4 with three)
TEST_JOBS ?= 3

.PHONY: app lab test chromium postgresql haproxy lint catalogs bench clean site

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per set of extras: it is older than pyproject.toml when that changed.
$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[app]"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[app,test]"
	touch $@ $(VENV)/.installed-app

# make app and make lab run the mathgames command (mathgames/cli.py), as a teacher's install does.
app: $(VENV)/.installed-app
	$(if $(PASSWORD),@MATHGAMES_PASSWORD="$(PASSWORD)") $(BIN)/mathgames \
		$(if $(CLASSROOM),class,app) --port $(PORT) \
		$(if $(MAX_KERNELS),--max-kernels $(MAX_KERNELS)) \
		$(if $(TRUSTED_PROXY),--trusted-proxy $(TRUSTED_PROXY))

lab: $(VENV)/.installed-app
	$(BIN)/mathgames lab notebooks --port $(LAB_PORT)

# What the tests and benches need from the system: Chromium (browser tests), a PostgreSQL
# server package (classroom store tests) and HAProxy (a school's server: two app servers behind
# the proxy). Installed with apt-get as root, or the command is shown, naming the make command
# that needed it.
ENSURE := MATHGAMES_MAKE_GOAL="make $(or $(MAKECMDGOALS),test)" .ci/ensure
chromium:
	@$(ENSURE)-chromium

postgresql:
	@$(ENSURE)-postgresql

haproxy:
	@$(ENSURE)-haproxy

lint: $(VENV)/.installed-test
	$(BIN)/ruff check mathgames tests bench conftest.py

test: chromium postgresql haproxy lint
	$(BIN)/python -m pytest --nbval -n $(TEST_JOBS) --dist loadfile $(PYTEST_ARGS)

# The static site (site/): the games in the browser with Pyodide, from PyPI and npm alone;
# rebuilt only when something it holds changed. SERVER=URL names a class server to join.
SERVER ?=
site: $(VENV)/.installed-app
	$(BIN)/python site-src/build.py $(if $(SERVER),--server "$(SERVER)")

catalogs: $(VENV)/.installed-app
	$(BIN)/python -m mathgames.core.i18n

# The benches race OpenSpiel and compile the fast engine: the bench extra brings both.
# The lesson-page and classroom benches drive Chromium, PostgreSQL and HAProxy, as the tests do.
$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[app,test,bench]"
	touch $@ $(VENV)/.installed-test $(VENV)/.installed-app

bench: chromium postgresql haproxy $(VENV)/.installed-bench
	for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis site .site-cache
