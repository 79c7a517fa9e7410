"""Fixtures of the web tests: the tiny "course" game, SQLite and PostgreSQL databases."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import webgame
import webhelpers

from choux import games


@pytest.fixture
def course(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test game "course" for the duration of one test."""
    webgame.install()
    monkeypatch.setitem(games.MODULES, webgame.NAME, "choux_webtest_course")
    monkeypatch.setattr(games, "_loaded", dict(games._loaded))
    monkeypatch.setitem(webgame.WINDOW, "value", 0.2)
    return webgame.NAME


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'choux.sqlite3'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test using it runs on SQLite and on PostgreSQL (skipped if unreachable)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'choux.sqlite3'}"
        return
    problem = webhelpers.postgres_problem()
    if problem:
        pytest.skip(problem)
    with webhelpers.postgres_schema() as url:
        yield url
