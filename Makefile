# The two commands a newcomer needs: `make run` and `make test`.
# Each creates .venv and installs what it needs, so a fresh machine works.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 5000

.PHONY: run dev lint test audit bench load soak cluster clean

$(VENV)/.run-installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.cluster-installed: pyproject.toml $(VENV)/.run-installed
	$(PY) -m pip install -q -e '.[cluster]'
	touch $@

$(VENV)/.test-installed: pyproject.toml $(VENV)/.run-installed
	$(PY) -m pip install -q -e '.[test]'
	touch $@

# gunicorn, one worker process with many threads (webapp/server.py)
run: $(VENV)/.run-installed
	$(PY) -m webapp --host 127.0.0.1 --port $(PORT)

# the reloading development server, for changing the code
dev: $(VENV)/.run-installed
	$(PY) -m webapp --dev --host 127.0.0.1 --port $(PORT)

# the front-end tools (ESLint, axe-core, Lighthouse, the level-name font) from the
# committed lock file
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# ruff (lint rules and formatting, configured in pyproject.toml); make test runs it first
lint: $(VENV)/.test-installed node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: $(VENV)/.test-installed lint
	PYTHON=$(PY) bash scripts/ensure-chromium.sh
	bash scripts/ensure-redis.sh
	$(PY) -m pytest -q

# Lighthouse (npm) on the lobby, a play page and an editor, phone and desktop, against a
# freshly started production server; prints the scores, fails under 95 (not in make test)
audit: $(VENV)/.run-installed node_modules/.installed
	PYTHON=$(PY) bash scripts/ensure-chromium.sh
	CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(PY) scripts/audit.py

bench: $(VENV)/.run-installed
	$(PY) -m solver bench

# CLIENTS simulated players for DURATION seconds against a fresh production server,
# or against running ones: make load URL="http://127.0.0.1:5000 http://127.0.0.1:5001",
# then each flood scenario for FLOOD_SECONDS while a canary player is timed
# (README: Load and scale)
CLIENTS ?= 200
DURATION ?= 60
FLOOD_SECONDS ?= 10
URL ?=
LOAD_ARGS = --clients $(CLIENTS) $(foreach u,$(URL),--url $(u))
load: $(VENV)/.test-installed
	$(PY) -m loadtest $(LOAD_ARGS) --duration $(DURATION) --flood-seconds $(FLOOD_SECONDS)

# the same for five minutes, watching the server's memory
soak: $(VENV)/.test-installed
	$(PY) -m loadtest $(LOAD_ARGS) --duration 300

# the Procfile under honcho: Redis, 2 web processes (ports PORT, PORT+1) and an RQ
# worker pool of 2 on loopback, until Ctrl-C (README: Cluster)
REDIS_PORT ?= 6390
WEB ?= 2
WORKERS ?= 2
cluster: $(VENV)/.cluster-installed
	bash scripts/ensure-redis.sh
	PATH="$(abspath $(VENV))/bin:$$PATH" REDIS_PORT=$(REDIS_PORT) WORKERS=$(WORKERS) \
	ARCADE_MESSAGE_QUEUE=redis://127.0.0.1:$(REDIS_PORT)/0 \
	$(VENV)/bin/honcho start --port $(PORT) --concurrency web=$(WEB)

clean:
	rm -rf $(VENV) node_modules test-artifacts .pytest_cache
