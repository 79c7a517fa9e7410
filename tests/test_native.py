"""The compiled build of the hot modules (src/choux/engine/native.py): used only while it
matches every source, and the doctests of compiled modules still run, on their sources."""

from __future__ import annotations

import doctest
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from choux.engine import native


def test_doctests_of_compiled_modules_run_on_their_sources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for path in native.compiled_sources():
        name = "choux_doctest_" + path.stem
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)  # dataclasses look their module up
        spec.loader.exec_module(module)
        result = doctest.testmod(module)
        assert result.failed == 0, path


def test_a_build_is_stale_once_a_source_or_an_import_of_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CHOUX_NATIVE", raising=False)  # the suite may run with it set to 0
    src = tmp_path / "src"
    package = src / "choux" / "demo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("X = 1\n")
    (package / "hot.py").write_text("from choux.demo.helper import X\n")
    monkeypatch.setattr(native, "PACKAGE_ROOT", src / "choux")
    monkeypatch.setattr(native, "MANIFEST", src / "choux" / "_native" / "manifest.json")
    native.MANIFEST.parent.mkdir()
    relative = "choux/demo/hot.py"
    native.MANIFEST.write_text(
        json.dumps(
            {
                "tag": native._tag(),
                "sources": {relative: native._digest(src / relative)},
                "depends": {r: native._digest(src / r) for r in native._imported_sources(relative)},
            }
        )
    )
    assert native.compiled_sources() == [src / relative]
    monkeypatch.setenv("CHOUX_NATIVE", "0")
    assert native.compiled_sources() == []
    monkeypatch.delenv("CHOUX_NATIVE")
    (package / "helper.py").write_text("X = 2\n")  # an import of the compiled module
    assert native.compiled_sources() == []
    (package / "helper.py").write_text("X = 1\n")
    assert native.compiled_sources() == [src / relative]
    shutil.copy(package / "helper.py", package / "hot.py")  # the compiled source itself
    assert native.compiled_sources() == []


#: a few seeded random games of each compiled game, printed as their records: the compiled
#: build must compute exactly what the sources compute
SAME_GAMES = """
import json, random
from choux import games
from choux.engine.playout import play_out
from choux.engine.record import start
for name, players, options in (("chouine", 2, {}), ("chouine", 4, {}),
                               ("cul-de-chouette", 4, {"objectif": 100}),
                               ("cul-de-chouette", 3, {"banque": True, "objectif": 60})):
    game = games.get(name)
    for seed in range(3):
        state, record = start(game, players, seed, options)
        bots = [game.make_bot("random", random.Random(seed * 10 + s)) for s in range(players)]
        play_out(state, bots, record)
        print(record.dumps())
"""


def test_the_compiled_build_plays_exactly_as_the_sources() -> None:
    if not native.compiled_sources():
        pytest.skip("no fresh compiled build (make setup builds it; CHOUX_NATIVE=0 is set)")
    runs = []
    for flag in ("1", "0"):
        env = {**os.environ, "CHOUX_NATIVE": flag}
        done = subprocess.run(
            [sys.executable, "-c", SAME_GAMES], env=env, capture_output=True, text=True, check=True
        )
        runs.append(done.stdout)
    assert runs[0].count("\n") == 12 and runs[0] == runs[1]
