"""The Alembic migrations build exactly the schema the code uses, and upgrading a database
made by an older release keeps its tables (SQLite and PostgreSQL)."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, select, text
from web_fixtures import db_url_fixture  # noqa: F401 (fixture)

from choux.play.store import (
    MIGRATIONS,
    metadata,
    migrate,
    ratings_t,
    seats_t,
    sync_url,
    tables_t,
)


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["url"] = sync_url(url)
    return config


def test_the_migrations_build_the_schema_of_the_code(db_url: str) -> None:
    migrate(db_url)
    engine = create_engine(sync_url(db_url))
    try:
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_upgrading_from_the_first_release_keeps_the_tables(db_url: str) -> None:
    command.upgrade(alembic_config(db_url), "0001")
    engine = create_engine(sync_url(db_url))
    when = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        with engine.begin() as conn:  # a table and a seat as release 0001 wrote them
            conn.execute(
                text(
                    "insert into tables (code, game, players, seed, options, clock, status,"
                    " version, created_at, updated_at) values ('vieille', 'chouine', 2, 1,"
                    " '{}', 0, 'live', 3, :when, :when)"
                ),
                {"when": when},
            )
            table_id = conn.execute(text("select id from tables")).scalar_one()
            conn.execute(
                text(
                    "insert into seats (table_id, seat, kind, name, host)"
                    " values (:t, 0, 'human', 'Ana', true)"
                ),
                {"t": table_id},
            )
        migrate(db_url)  # what a newer server does when it starts
        with engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.code == "vieille")).one()
            assert row.version == 3
            seat = conn.execute(select(seats_t)).one()
            assert (seat.name, seat.player) == ("Ana", None)  # known seat, no identity yet
            assert conn.execute(select(ratings_t)).all() == []
    finally:
        engine.dispose()


def test_a_database_made_without_migrations_is_stamped_or_refused(db_url: str) -> None:
    """An installed server of a release whose wheel carried no migrations made its
    database with create_all and no alembic_version: the next one, with migrations, failed
    to start on « table tables already exists » (a review). At the current schema it is
    stamped and starts; at an older one it is refused with what is missing."""
    import pytest
    from alembic.script import ScriptDirectory

    from choux.play.store import OldSchema

    engine = create_engine(sync_url(db_url))
    try:
        metadata.create_all(engine)
        migrate(db_url)  # stamped, then nothing to do
        with engine.connect() as conn:
            version = conn.execute(text("select version_num from alembic_version")).scalar()
        head = ScriptDirectory.from_config(alembic_config(db_url)).get_current_head()
        assert version == head
        with engine.begin() as conn:
            conn.execute(text("drop table alembic_version"))
            conn.execute(text("alter table tables drop column seed_text"))
        with pytest.raises(OldSchema, match=r"tables\.seed_text"):
            migrate(db_url)
    finally:
        engine.dispose()


CRASHING_REVISION = '''
"""A revision killed midway (the test's fault)."""
import os
import signal

import sqlalchemy as sa
from alembic import op

revision = "0999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("crash_col", sa.Integer, nullable=True))
    op.create_table("crash_table", sa.Column("id", sa.Integer, primary_key=True))
    os.kill(os.getpid(), signal.SIGKILL)


def downgrade() -> None:
    pass
'''


def test_a_sqlite_upgrade_killed_midway_leaves_the_database_as_it_was(tmp_path: Path) -> None:
    """An upgrade is one transaction on SQLite too: a process killed (kill -9) in the
    middle of the upgrade leaves the file at the revision it had, every schema change of
    the upgrade undone, and the next start upgrades it. (SQLite's DDL is transactional;
    Python's driver used to commit each statement on its own.)"""
    url = f"sqlite:///{tmp_path / 'choux.sqlite3'}"
    command.upgrade(alembic_config(url), "0008")
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    scripts = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0999_crash.py").write_text(CRASHING_REVISION.format(head=head))
    program = (
        "import sys\n"
        "from alembic import command\n"
        "from alembic.config import Config\n"
        "config = Config()\n"
        "config.set_main_option('script_location', sys.argv[1])\n"
        "config.attributes['url'] = sys.argv[2]\n"
        "command.upgrade(config, 'head')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, str(scripts), sync_url(url)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            assert conn.execute(text("select version_num from alembic_version")).scalar() == "0008"
            columns = {row[1] for row in conn.execute(text("pragma table_info(accounts)"))}
            assert "suspended_at" not in columns  # 0009, before the crash, undone too
            tables = {row[1] for row in conn.execute(text("pragma table_info(tables)"))}
            assert "crash_col" not in tables
            names = {row[0] for row in conn.execute(text("select name from sqlite_master"))}
            assert "crash_table" not in names
    finally:
        engine.dispose()
    migrate(url)  # the real code upgrades it at the next start
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            assert conn.execute(text("select version_num from alembic_version")).scalar() == head
    finally:
        engine.dispose()
