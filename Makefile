# The two commands: `make run` serves the site, `make test` runs the whole suite.
# Both install what they need first (a virtual environment in .venv, npm packages).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# WebSocket frames over 64 KiB close the socket (docs/protocol.md).
DAPHNE_ARGS ?= --websocket-max-message-size 65536
# Two pytest-xdist workers, each test file on one of them (its servers are shared by its tests).
PYTEST_ARGS ?= -n 2 --dist loadfile

.PHONY: run test install lint format messages bench clean

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# One task worker (recomputes, league mails: leagues/tasks.py) beside daphne; it stops with it.
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) $(DAPHNE_ARGS) config.asgi:application

test: install
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# French and English: edit locale/fr/LC_MESSAGES/django.po, then `make messages`.
messages: install
	$(PY) manage.py makemessages -l fr --no-obsolete --ignore=.venv --ignore=node_modules
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) node_modules staticfiles
