"""At « debug » the journal still holds no secret: the database drivers' lines, which carry
every query's parameters (the cookie key, password hashes), stay at « warning »."""

from __future__ import annotations

import asyncio
import logging
import logging.config
from pathlib import Path

import pytest

from choux.play.store import Store
from choux.web.server import log_config


def test_debug_logs_keep_the_database_s_secrets_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {name: logging.getLogger(name).level for name in ("", "aiosqlite", "sqlalchemy")}
    logging.config.dictConfig(log_config("debug"))
    try:

        async def store_a_secret() -> str:
            store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
            await store.open()
            try:
                return await store.secret("cookie_key", lambda: "s3cr3t-" + "k" * 40)
            finally:
                await store.close()

        secret = asyncio.run(store_a_secret())
        logging.getLogger("choux.web").debug("a debug line of Choux's own")
    finally:
        logging.config.dictConfig({"version": 1, "disable_existing_loggers": False})
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)
    journal = capsys.readouterr().err
    assert "a debug line of Choux's own" in journal  # debug is on
    assert secret.startswith("s3cr3t-") and secret not in journal
