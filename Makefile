# The two commands a newcomer needs: `make run` and `make test`.
# Each creates .venv and installs what it needs, so a fresh machine works.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 5000

.PHONY: run dev translations lint test js-test cold-tables vendor chromium page-audit browser-tests untimed-tests docs audit bench lab-fps leaderboard-bench load soak capacity serving races cluster clean

# uv (from PyPI, into the venv) installs the packages: it resolves, fetches and unpacks
# in parallel, 14 s where pip took 55 s of a fresh make test's set-up. Neither compiles
# ahead: Python compiles what is imported, once, instead of every module of every package
UV = test -x $(VENV)/bin/uv || $(PY) -m pip install -q --no-compile uv; \
	$(VENV)/bin/uv pip install -q --python $(PY)
INSTALL = test -x $(PY) || $(PYTHON) -m venv $(VENV); $(UV) -e

$(VENV)/.run-installed: pyproject.toml
	$(INSTALL) .
	touch $@

$(VENV)/.cluster-installed: pyproject.toml $(VENV)/.run-installed
	$(UV) -e '.[cluster]'
	touch $@

# one install with the test extras, not the app's then the tests' (each built the
# project's editable wheel)
$(VENV)/.test-installed: pyproject.toml
	$(INSTALL) '.[test]'
	touch $@ $(VENV)/.run-installed

# gunicorn with its gevent worker: one process, one event loop, every connection a
# greenlet, the searches in solver processes beside it (webapp/serve/server.py);
# Ctrl-C or SIGTERM stops it gracefully (docs/serving.rst)
run: $(VENV)/.run-installed
	$(PY) -m webapp --host 127.0.0.1 --port $(PORT)

# the reloading development server, for changing the code
dev: $(VENV)/.run-installed
	$(PY) -m webapp --dev --host 127.0.0.1 --port $(PORT)

# the catalogues from their sources (babel.cfg: templates, Python, page scripts): extract,
# then merge into each language's .po (a new message comes in untranslated, and
# tests/test_i18n.py names it until it is translated); the app compiles the .mo at start-up
POT := build/messages.pot
translations: $(VENV)/.run-installed
	mkdir -p build
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ --add-location=file --sort-output --project puzzle-arcade -o $(POT) .
	$(VENV)/bin/pybabel update -i $(POT) -d webapp/translations --no-fuzzy-matching --ignore-obsolete

# the front-end tools (ESLint, axe-core, Lighthouse, the level-name font) from the
# committed lock file
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# the browser libraries the pages load, copied from the npm packages pinned in
# package.json into static/vendor (committed: no build step, no CDN); the solver lab
# draws its state graph with sigma.js over graphology. Run after changing a version.
vendor: node_modules/.installed
	{ echo "/*! sigma $$(node -p 'require("./node_modules/sigma/package.json").version') | MIT | https://www.sigmajs.org */"; \
	  cat node_modules/sigma/dist/sigma.min.js; } > static/vendor/sigma.min.js
	{ echo "/*! graphology $$(node -p 'require("./node_modules/graphology/package.json").version') | MIT | https://graphology.github.io */"; \
	  cat node_modules/graphology/dist/graphology.umd.min.js; } > static/vendor/graphology.umd.min.js

# ruff (lint rules and formatting), mypy (types; both configured in pyproject.toml) and
# ESLint (eslint.config.js); make test runs it first
lint: $(VENV)/.test-installed node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	npx --no-install eslint .

# Three steps, each using both cores:
# 1. the Python and npm installs side by side, then the cold table builds (one core for
#    about a minute and a half on a fresh checkout; they fill the table folder every
#    later test reads) beside lint, the JS unit tests (Node's own runner, tests/js) and
#    the browser audit of every page (it needs only the small tables, and builds them);
# 2. the browser tests beside the other untimed tests: two pytest processes, each with
#    its own servers, PostgreSQL and Chromium (pytest-xdist split files blindly, and its
#    workers each started every server);
# 3. the tests that time or crowd a server (marked serial), alone.
# Bytecode is written (the environment may say not to), so the hundreds of Python
# processes the tests start compile the project once, not each; each run names its 25
# slowest steps, the figures the two lanes of step 2 are evened out by.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -q --durations=25
UNTIMED := not cold_tables and not serial

test:
	$(MAKE) --no-print-directory -j2 --output-sync=target cold-tables lint js-test page-audit
	bash scripts/ensure-redis.sh
	bash scripts/ensure-haproxy.sh
	bash scripts/ensure-postgres.sh
	$(MAKE) --no-print-directory -j2 --output-sync=target browser-tests untimed-tests
	$(PYTEST) -m serial

js-test: node_modules/.installed
	node --test tests/js/

# make test's parts, each alone
cold-tables: $(VENV)/.test-installed
	$(PYTEST) -m cold_tables

chromium: $(VENV)/.test-installed
	PYTHON=$(PY) bash scripts/ensure-chromium.sh

# axe, the layout and the CSP of every page, in both themes and at both widths
PAGE_AUDIT := tests/test_browser_audit.py
page-audit: chromium node_modules/.installed
	$(PYTEST) -m "$(UNTIMED)" $(PAGE_AUDIT)

# the browser tests alone took 6 minutes beside the others' 10: these modules (no
# timing) join the browser tests to even the two out (summed by --durations=0 on
# 2026-11-27: 465 s of browser lane against 572 s of the rest before the reads joined;
# on 2026-12-02, 500 s against 641 s before the players' trust tests, 91 s, joined; on
# 2026-12-03, 678 s against 602 s, so the bench's and the wheel's tests, 35 s, went back.
# A third lane was slower: 703 s, the two cores busy)
BESIDE_BROWSERS := tests/test_klotski_compiled.py \
	tests/test_npuzzle_packed.py tests/test_npuzzle_compiled.py tests/test_npuzzle_packed24.py \
	tests/test_npuzzle_windows.py tests/test_reads.py tests/test_players_trust.py

browser-tests: chromium
	$(PYTEST) -m "$(UNTIMED)" $(filter-out $(PAGE_AUDIT),$(wildcard tests/test_browser_*.py)) \
		$(BESIDE_BROWSERS)

untimed-tests: $(VENV)/.test-installed
	$(PYTEST) -m "not browser and $(UNTIMED)" $(addprefix --ignore=,$(BESIDE_BROWSERS))

$(VENV)/.docs-installed: pyproject.toml $(VENV)/.run-installed
	$(UV) -e '.[docs]'
	touch $@

# the manual and the library's reference into docs/_build/html; a warning fails the build
docs: $(VENV)/.docs-installed
	$(VENV)/bin/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "docs/_build/html/index.html"

# Lighthouse (npm) on the lobby, a play page and an editor, phone and desktop, against a
# freshly started production server; prints the scores, fails under 95 (not in make test)
audit: $(VENV)/.run-installed node_modules/.installed
	PYTHON=$(PY) bash scripts/ensure-chromium.sh
	CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(PY) scripts/audit.py

bench: $(VENV)/.run-installed
	$(PY) -m solver bench

# the solver lab's state graph at a classic Klotski group's size (25,955 positions) in
# headless Chromium: frames per second while it is dragged and zoomed (not in make test)
lab-fps: chromium node_modules/.installed
	$(PY) scripts/lab_fps.py

# the reads with RANKED players on today's daily, on SQLite then PostgreSQL (seeded in
# bulk, migrated, served by the production server): the leaderboard's p95 over 200
# requests, /healthz's worst latency while 16 clients read, and "players chose" over 120
# long lines (docs: leaderboards.rst)
RANKED ?= 50000
leaderboard-bench: $(VENV)/.test-installed
	bash scripts/ensure-postgres.sh
	$(PY) -m loadtest.leaderboard --players $(RANKED)

# CLIENTS simulated players for DURATION seconds against a fresh production server,
# or against running ones: make load URL="http://127.0.0.1:5000 http://127.0.0.1:5001",
# then each flood scenario for FLOOD_SECONDS while a canary player is timed
# (docs/performance.rst)
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

# PLAYERS idle players from ADDRESSES loopback addresses on a fresh server, a canary
# timed (docs/performance.rst)
PLAYERS ?= 3000
ADDRESSES ?= 60
capacity: $(VENV)/.test-installed
	$(PY) -m loadtest --capacity $(PLAYERS) --addresses $(ADDRESSES) $(foreach u,$(URL),--url $(u))

# SERVING_CLIENTS players with no think time asking analyse for SERVING_SECONDS a row: a
# bare Flask-SocketIO app, then a fresh server (random and popular positions), then a
# fresh make cluster through its proxy, in one run (docs/performance.rst); SERVING_ARGS
# for more (--no-cluster, --profile DIR, --json FILE)
SERVING_CLIENTS ?= 20
SERVING_SECONDS ?= 20
SERVING_ARGS ?=
serving: $(VENV)/.test-installed
	bash scripts/ensure-redis.sh
	bash scripts/ensure-haproxy.sh
	$(PY) -m loadtest --serving --clients $(SERVING_CLIENTS) --duration $(SERVING_SECONDS) $(SERVING_ARGS)

# RACES races of RACERS simulated racers on a fresh make cluster, every race spread over
# its two web processes: the p95 from a move to every other racer seeing it, CPU per race,
# and nothing lost (docs/performance.rst)
RACES ?= 100
RACERS ?= 5
races: $(VENV)/.test-installed
	bash scripts/ensure-redis.sh
	bash scripts/ensure-haproxy.sh
	bash scripts/ensure-postgres.sh
	$(PY) -m loadtest --races $(RACES) --racers $(RACERS)

# supervisord (deploy/supervisord.conf) in the foreground: HAProxy on PORT
# (deploy/haproxy.cfg) in front of WEB web processes (ports PORT+1, PORT+2, ...), each
# with its own data folder, an RQ worker pool of WORKERS, Redis and PostgreSQL (the
# players) on loopback; whatever exits is restarted; Ctrl-C stops it all (docs/cluster.rst)
REDIS_PORT ?= 6390
PG_PORT ?= 5439
WEB ?= 2
WORKERS ?= 2
WEB_PORT = $(shell echo $$(($(PORT) + 1)))
cluster: $(VENV)/.cluster-installed
	bash scripts/ensure-redis.sh
	bash scripts/ensure-haproxy.sh
	bash scripts/ensure-postgres.sh
	PATH="$(abspath $(VENV))/bin:$$PATH" REDIS_PORT=$(REDIS_PORT) WORKERS=$(WORKERS) \
	PROXY_PORT=$(PORT) WEB_PORT=$(WEB_PORT) WEB_COUNT=$(WEB) ARCADE_TRUSTED_PROXIES=1 \
	ARCADE_MESSAGE_QUEUE=redis://127.0.0.1:$(REDIS_PORT)/0 PG_PORT=$(PG_PORT) \
	ARCADE_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:$(PG_PORT)/arcade \
	bash scripts/cluster.sh

clean:
	rm -rf $(VENV) node_modules test-artifacts .pytest_cache .mypy_cache docs/_build
