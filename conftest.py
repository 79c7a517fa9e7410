"""Root of the test run: `--doctest-modules` skips the modules that run compiled (see
src/choux/engine/native.py); tests/test_native.py runs their doctests on their sources."""

from __future__ import annotations

from pathlib import Path

from choux.engine.native import compiled_sources

COMPILED = set(compiled_sources())


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    return True if collection_path.resolve() in COMPILED else None
