"""Alembic environment: the URL comes from the caller (the server) or CHOUX_DATABASE_URL."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import Connection, create_engine, event, pool
from sqlalchemy.engine import Engine

from choux.play.settings import default_database_url
from choux.play.store import metadata, sync_url

config = context.config
url = config.attributes.get("url") or sync_url(default_database_url())


def run_migrations_offline() -> None:
    context.configure(url=url, target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def transactional_sqlite(engine: Engine) -> None:
    """SQLite's schema changes are transactional, but Python's driver commits each one on
    its own (it opens a transaction only before INSERT, UPDATE and DELETE): the driver is
    told to open none, and every SQLAlchemy transaction says BEGIN itself. An upgrade
    stopped midway (a timeout, kill -9, a power cut) then leaves the file as it was."""

    @event.listens_for(engine, "connect")
    def _no_driver_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN")


def run_migrations_online() -> None:
    engine = create_engine(url, poolclass=pool.NullPool)
    sqlite = engine.dialect.name == "sqlite"
    if sqlite:
        transactional_sqlite(engine)
    with engine.connect() as connection:
        # the whole upgrade in one transaction, on SQLite too (PostgreSQL's default)
        context.configure(
            connection=connection,
            target_metadata=metadata,
            transactional_ddl=True if sqlite else None,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
