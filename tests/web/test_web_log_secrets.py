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


def reset_logging() -> None:
    """What a test's `log_config` set goes: its handler writes to the test's captured
    stderr, closed once the test ends (later tests' lines then failed to print)."""
    logging.config.dictConfig(
        {
            "version": 1,
            "disable_existing_loggers": False,
            "root": {"handlers": [], "level": "WARNING"},
            "loggers": {
                name: {"level": "NOTSET"} for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
            },
        }
    )


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
        reset_logging()
        for name, level in before.items():
            logging.getLogger(name).setLevel(level)
    journal = capsys.readouterr().err
    assert "a debug line of Choux's own" in journal  # debug is on
    assert secret.startswith("s3cr3t-") and secret not in journal


def test_the_journal_shows_no_cookie_frame_or_one_time_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """At « debug » uvicorn's WebSocket protocol wrote each handshake's cookie (seat and
    session tokens) and every frame (a hidden hand) to `uvicorn.error`; at « info » the
    access log wrote password-reset and confirmation tokens and private tables' keys."""
    for level in ("debug", "info"):
        logging.config.dictConfig(log_config(level))
        try:
            logging.getLogger("uvicorn.error").debug("< cookie: choux=SEAT-TOKEN-1")
            logging.getLogger("uvicorn.error").info("Application startup complete.")
            access = logging.getLogger("uvicorn.access")
            for path in ("/mot-de-passe/nouveau?jeton=RESET-2", "/t/ab12cd34?cle=KEY-3&x=1"):
                access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", path, "1.1", 200)
        finally:
            reset_logging()
        journal = capsys.readouterr().err
        assert "Application startup complete." in journal, level
        assert "/mot-de-passe/nouveau?jeton=…" in journal and "/t/ab12cd34?cle=…&x=1" in journal
        for secret in ("SEAT-TOKEN-1", "RESET-2", "KEY-3"):
            assert secret not in journal, (level, secret)
