"""The SQLite file is the site's secrets too: created readable by its owner only whatever
the umask (its -wal and -shm files follow it), and an existing file others may read is
reported at start."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
from pathlib import Path

import pytest
from web_fixtures import course_fixture  # noqa: F401 (fixture)

from choux.play.sqlite_files import make_private, sqlite_path
from choux.play.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_database_and_its_journal_are_readable_by_their_owner_only(
    tmp_path: Path, course: str
) -> None:
    from test_sqlite_appends import open_tables

    old = os.umask(0o022)  # the usual umask: files 644 by default
    try:
        url = f"sqlite:///{tmp_path / 'choux.sqlite3'}"

        async def scenario() -> None:
            store, service, _, _ = await open_tables(url, course, 1)
            await service.stop()
            await store.close()

        asyncio.run(scenario())
    finally:
        os.umask(old)
    made = sorted(p.name for p in tmp_path.iterdir())
    assert "choux.sqlite3" in made
    for name in made:
        assert mode(tmp_path / name) == 0o600, (name, oct(mode(tmp_path / name)))


def test_an_existing_database_that_others_may_read_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "choux.sqlite3"
    path.touch()
    path.chmod(0o644)
    url = f"sqlite:///{path}"
    assert "chmod 600" in (make_private(url) or "")
    with caplog.at_level(logging.WARNING):

        async def scenario() -> None:
            store = Store(url)
            await store.open()
            await store.close()

        asyncio.run(scenario())
    assert any("lisible par d'autres comptes" in r.getMessage() for r in caplog.records)
    assert mode(path) == 0o644  # left as the operator set it
    path.chmod(0o600)
    assert make_private(url) is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///:memory:", None),
        ("sqlite://", None),
        ("postgresql://localhost/choux", None),
        ("sqlite:////var/lib/choux/choux.sqlite3", Path("/var/lib/choux/choux.sqlite3")),
    ],
)
def test_only_a_sqlite_file_is_concerned(url: str, expected: Path | None) -> None:
    assert sqlite_path(url) == expected


def test_a_missing_folder_is_left_to_the_database_to_report(tmp_path: Path) -> None:
    assert make_private(f"sqlite:///{tmp_path / 'nowhere' / 'choux.sqlite3'}") is None
    assert not (tmp_path / "nowhere").exists()


def test_the_start_checks_create_the_file_private_too(tmp_path: Path) -> None:
    """`choux serve` migrates and writes before the store opens (`check_database`)."""
    from choux.web.startup import check_database

    old = os.umask(0o022)
    try:
        path = tmp_path / "choux.sqlite3"
        assert check_database(f"sqlite:///{path}") is None
    finally:
        os.umask(old)
    assert mode(path) == 0o600
