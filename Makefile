# Two commands do all the set-up: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make test` and `make bench` start loopback mail servers of their own (a fresh directory, free ports:
# scripts/mail-test-servers.sh run), so two runs at once in two clones leave each other alone.
# Exporting MAILSVC_DIR (and PORT_OFFSET) picks the directory (and ports) instead.
# The suite runs on TEST_WORKERS pytest-xdist workers (tests sharing servers or a played game stay together:
# tests/conftest.py); PYTEST_ARGS adds pytest options or test paths.  Three on a 2-core machine: the mail tests
# wait on Dovecot (half a second a failed login, an IDLE notice) and a third worker fills those waits
# (fresh clone, idle: 137 s of pytest with 3, 155 s with 2).
TEST_WORKERS ?= 3

.PHONY: demo test bench soak lint venv mail-servers clean

$(STAMP): pyproject.toml
	@# a fresh Debian has python3 without venv/ensurepip: install it from Debian's packages when we can
	@$(PY) -c 'import ensurepip, venv' 2>/dev/null || bash scripts/apt-install.sh python3-venv || \
	  { echo "python3-venv is missing: run 'sudo apt-get install python3-venv' and try again"; exit 1; }
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check --upgrade pip
	$(BIN)/pip install -q --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

## make demo: plays scripted games on the embedded default (local Maildirs) and prints where the mail went.
demo: $(STAMP)
	$(BIN)/pbem demo

## make test: installs everything (Debian's chromium for the archive tests too), starts Dovecot + an SMTP sink
## on loopback, runs the whole suite (its temporary files on a RAM disk when there is one: scripts/ram-tmp.sh).
## The suite's compiled bytecode (pytest's rewritten tests too) is kept in .venv/pycache, out of the source tree,
## even where PYTHONDONTWRITEBYTECODE is set: without it each worker rewrote and compiled every test module
## (collection 5.5 s -> 1.6 s each from the second run) and every `pbem` process the tests start compiled what it
## imported (measured 2 December 2026: the whole suite's CPU 286 s -> 272 s from the second run).
test: $(STAMP)
	bash scripts/browser-test-deps.sh
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache \
	  bash scripts/ram-tmp.sh bash scripts/mail-test-servers.sh run $(BIN)/pytest -q -p no:cacheprovider \
	  -n $(TEST_WORKERS) --dist loadgroup \
	  $(PYTEST_ARGS)

## make bench: prints every figure beside its floor and its target (the bench/ package; BENCH_ARGS: figure
## names, --quick, --compare ../other-checkout, ...: python -m bench --help).
bench: $(STAMP)
	bash scripts/mail-test-servers.sh run $(BIN)/python -m bench $(BENCH_ARGS)

## make soak: the long fault campaign (random SIGKILLs, SMTP faults, overlapping ticks, mutated mail); prints a table.
soak: $(STAMP)
	$(BIN)/python scripts/soak.py $(SOAK_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check pbem tests scripts bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build data/mail data/forum data/*.sqlite*
