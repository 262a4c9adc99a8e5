# Two commands do all the set-up: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# where the loopback mail servers live (set MAILSVC_DIR and PORT_OFFSET to run two suites side by side)
MAILSVC_DIR ?= /tmp/pbem-mailsvc
export MAILSVC_DIR

.PHONY: demo test bench soak lint venv mail-servers clean

$(STAMP): pyproject.toml
	@# a fresh Debian has python3 without venv/ensurepip: install it from Debian's packages when we can
	@$(PY) -c 'import ensurepip, venv' 2>/dev/null || { [ "$$(id -u)" = 0 ] && \
	  DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >/dev/null; } || \
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
## on loopback, runs the whole suite.
test: $(STAMP)
	@mkdir -p build
	bash scripts/browser-test-deps.sh
	bash scripts/mail-test-servers.sh start >build/mailsvc.log 2>&1 || { cat build/mailsvc.log; exit 1; }
	set -a; . $(MAILSVC_DIR)/env.sh; set +a; $(BIN)/pytest -q -p no:cacheprovider; rc=$$?; bash scripts/mail-test-servers.sh stop; exit $$rc

## make bench: prints throughput figures and ratios (see scripts/bench.py).
bench: $(STAMP)
	bash scripts/mail-test-servers.sh start > /dev/null
	set -a; . $(MAILSVC_DIR)/env.sh; set +a; $(BIN)/python scripts/bench.py; rc=$$?; bash scripts/mail-test-servers.sh stop; exit $$rc

## make soak: the long fault campaign (random SIGKILLs, SMTP faults, overlapping ticks, mutated mail); prints a table.
soak: $(STAMP)
	$(BIN)/python scripts/soak.py $(SOAK_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check pbem tests scripts
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build data/mail data/forum data/*.sqlite*
