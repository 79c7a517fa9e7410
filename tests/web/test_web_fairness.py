"""Provably fair tables: a 128-bit secret seed, its commitment on the table page from
creation, the seed revealed in the finished game's record, `choux replay --verify`."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, play_to_end

from choux.engine import fairness
from choux.engine.fairness import SEED_BITS, commitment


def verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "choux", "replay", "--verify", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},  # one line per message
    )


def test_seeds_come_from_a_secure_source_with_128_bits_and_survive_the_store(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as c:
        codes = [create_table(c, "chouine", ["human", "bot:random"]) for _ in range(4)]
        seeds = [c.app.state.service.tables[code].row.seed for code in codes]
    assert len(set(seeds)) == 4
    assert all(0 <= s < 2**SEED_BITS for s in seeds)
    assert max(seeds) >= 2**64  # beyond the old 31 bits and the 64-bit column: 1 in 2**62
    with client(sqlite_url) as c:  # restarted: the whole seed comes back from the store
        reloaded = [
            c.get(f"/t/{code}") and c.app.state.service.tables[code].row.seed for code in codes
        ]
    assert reloaded == seeds


def test_the_page_commits_to_the_seed_and_the_record_reveals_it(
    sqlite_url: str, tmp_path: Path
) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice", {"manches": "1"})
        page = c.get(f"/t/{code}").text
        shown = re.search(r'id="commitment">([0-9a-f]{64})<', page)
        assert shown, "no commitment on the table page"
        assert "<summary>Donne équitable</summary>" in html.unescape(page)
        dice = create_table(c, "cul-de-chouette", ["human", "bot:easy"], "Alice")
        assert "<summary>Dés équitables</summary>" in html.unescape(c.get(f"/t/{dice}").text)
        seed = c.app.state.service.tables[code].row.seed
        assert str(seed) not in page  # not revealed before the end
        assert shown.group(1) == commitment(seed)
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        record = c.get(f"/parties/{final['record_id']}.json").json()
        over = c.get(f"/t/{code}").text
    assert record["seed"] == seed and record["commitment"] == shown.group(1)
    assert str(seed) in over  # revealed on the finished table's page too
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(record) + "\n")
    ok = verify(path, "--commitment", shown.group(1))
    assert ok.returncode == 0, ok.stderr
    assert "correspondent à leur empreinte" in ok.stdout
    forged = dict(record, seed=seed + 1)  # another seed would deal other cards
    path.write_text(json.dumps(forged) + "\n")
    bad = verify(path)
    assert bad.returncode == 2 and "does not match its commitment" in bad.stderr
    path.write_text(json.dumps(record) + "\n")
    other_noted = verify(path, "--commitment", "0" * 64)
    assert other_noted.returncode == 2 and "does not match the commitment" in other_noted.stderr


def test_commitments_are_sha256_of_the_seed_with_a_fixed_prefix() -> None:
    import hashlib

    assert commitment(42) == hashlib.sha256(b"choux-seed/1:42").hexdigest()
    assert fairness.matches(42, commitment(42).upper())
    assert not fairness.matches(43, commitment(42))
