"""Fixtures of the web tests (imported by each test module: no conftest.py, see below).

Several conftest.py files without packages clash under --doctest-modules, hence this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import webgame
import webhelpers

from choux import games


@pytest.fixture(name="course")
def course_fixture(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test game "course" for the duration of one test."""
    webgame.install()
    monkeypatch.setitem(games.MODULES, webgame.NAME, "choux_webtest_course")
    monkeypatch.setattr(games, "_loaded", dict(games._loaded))
    monkeypatch.setitem(webgame.WINDOW, "value", 0.2)
    return webgame.NAME


@pytest.fixture(name="sqlite_url")
def sqlite_url_fixture(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'choux.sqlite3'}"


@pytest.fixture(
    name="db_url", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test using it runs on SQLite and on PostgreSQL (skipped if unreachable)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'choux.sqlite3'}"
        return
    problem = webhelpers.postgres_problem()
    if problem:
        pytest.skip(problem)
    with webhelpers.postgres_schema() as url:
        yield url
