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

# The hot modules compiled with mypyc: the Chouine engine, its exact solver and its search,
# and Cul de Chouette's engine (see src/choux/engine/native.py and docs/perf.md), trained
# once on the typical work of each game's pgo.py (gcc's profile-guided build). Rebuilt when
# they or a module they may import change; a failed build (no C compiler) only warns: they
# then run interpreted. (Cul de Chouette's actions and substates stay interpreted: the build
# fails on their dataclasses, subclasses of the interpreted `Action` and of `Generic`.)
CDC := src/choux/games/cul_de_chouette
NATIVE := src/choux/games/chouine/cards.py src/choux/games/chouine/rules.py \
	src/choux/games/chouine/variants.py src/choux/games/chouine/state.py \
	src/choux/games/chouine/endgame.py src/choux/games/chouine/search.py \
	src/choux/games/chouine/card_policy.py \
	$(addprefix $(CDC)/,bleu_rouge.py challenges.py civet.py combos.py legality.py moves.py \
	races.py rotation.py rules.py sirotage.py state.py steps.py table.py turn.py view.py)
NATIVE_DEPS := $(wildcard src/choux/games/chouine/*.py $(CDC)/*.py src/choux/ai/*.py) \
	src/choux/engine/base.py src/choux/engine/native.py
TRAIN := choux.games.chouine.pgo,choux.games.cul_de_chouette.pgo

$(VENV)/.native: Makefile $(VENV)/.synced $(NATIVE) $(NATIVE_DEPS)
	@echo "Compiling the Chouine and Cul de Chouette engines with mypyc (a few minutes)..."
	@$(BIN)/python -m choux.engine.native --train $(TRAIN) $(NATIVE) > $(VENV)/native-build.log 2>&1 \
		|| echo "warning: the mypyc build failed (see $(VENV)/native-build.log): the engines run interpreted"
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
