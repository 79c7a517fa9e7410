# Two commands for a newcomer: `make run` and `make test` (see README.md).
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV := .venv
BIN := $(VENV)/bin
# `make run PORT=9000 HOST=0.0.0.0`: where `choux serve` listens (it prints the address to open)
HOST ?= 127.0.0.1
PORT ?= 8000
export UV_PYTHON_DOWNLOADS := never

.PHONY: setup run test lint typecheck pytest bench e2e clean

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet uv==$(UV_VERSION)

$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --python $(PYTHON)
	touch $@

# The hot modules compiled with mypyc: the Chouine engine, its exact solver and its search
# (see src/choux/engine/native.py and docs/perf.md), trained once on the typical work of
# choux/games/chouine/pgo.py (gcc's profile-guided build). Rebuilt when they or a module they
# may import change; a failed build (no C compiler) only warns: they then run interpreted.
NATIVE := src/choux/games/chouine/cards.py src/choux/games/chouine/rules.py \
	src/choux/games/chouine/variants.py src/choux/games/chouine/state.py \
	src/choux/games/chouine/endgame.py src/choux/games/chouine/search.py \
	src/choux/games/chouine/card_policy.py
NATIVE_DEPS := $(wildcard src/choux/games/chouine/*.py src/choux/ai/*.py) \
	src/choux/engine/base.py src/choux/engine/native.py

$(VENV)/.native: Makefile $(VENV)/.synced $(NATIVE) $(NATIVE_DEPS)
	@echo "Compiling the Chouine engine with mypyc (a minute or two)..."
	@$(BIN)/python -m choux.engine.native --train choux.games.chouine.pgo $(NATIVE) > $(VENV)/native-build.log 2>&1 \
		|| echo "warning: the mypyc build failed (see $(VENV)/native-build.log): the engine runs interpreted"
	touch $@

setup: $(VENV)/.synced $(VENV)/.native

run: setup
	$(BIN)/choux serve --host $(HOST) --port $(PORT)

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/python tests/browser_check.py
	$(BIN)/pytest -n 2 -rR

test: lint typecheck pytest

bench: setup
	$(BIN)/python bench/engines.py

clean:
	rm -rf $(VENV) .tools .pytest_cache .mypy_cache .ruff_cache src/choux/_native build
