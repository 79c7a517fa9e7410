"""Bytes a table sends each seat at every move: one random game per game, through a live
table's messages (`LiveTable.message_text`, as the sockets get them), each seat reading
every version.

    .venv/bin/python bench/message_sizes.py
    .venv/bin/python bench/message_sizes.py --game parlote --all-parts   # no rare parts left out

Prints, per game, the average and largest message after the first (full) one, the bytes of
the whole game for all seats, and the CPU time spent building the messages of a version.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time

from choux import games
from choux.engine.playout import random_step
from choux.play.service import SeatSpec, TableService
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.tables import Subscriber

PLAYERS = {"chouine": 2, "chouineurs": 4, "cul-de-chouette": 4, "parlote": 4}


async def measure(name: str, seed: int, versions: int, all_parts: bool) -> str:
    url = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    store = Store(url)
    await store.open()
    service = TableService(Settings(database_url=url, secret_key="bench"), store)
    players = PLAYERS.get(name, games.get(name).min_players)
    seats = [SeatSpec("bot", "random")] * players
    table, _ = await service.create(name, players, {}, seats, seed=seed)
    if all_parts:
        type(table.game).rare_view_keys = ()
    subs = [Subscriber(s) for s in range(players)]
    for sub in subs:
        table.message_text(sub, full=True)
    policy = random.Random(seed)
    sizes: list[int] = []
    spent = 0.0
    played = 0
    while played < versions and not table.state.is_over():
        random_step(table.state, policy)
        table.version += 1
        played += 1
        begin = time.process_time()
        texts = [table.message_text(sub) for sub in subs]
        spent += time.process_time() - begin
        sizes += [len(t.encode()) for t in texts]
    await service.stop()
    await store.close()
    return (
        f"{name:16} {players} places, {played:5} versions : message moyen "
        f"{sum(sizes) / len(sizes) / 1000:6.1f} Ko, le plus gros {max(sizes) / 1000:6.1f} Ko, "
        f"partie entière {sum(sizes) / 1e6:6.2f} Mo, {1000 * spent / played:.2f} ms de calcul "
        "par version"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=games.names(), action="append")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--versions", type=int, default=600, help="at most, per game")
    parser.add_argument("--all-parts", action="store_true", help="leave no rare part out")
    args = parser.parse_args()
    for name in args.game or games.names():
        print(asyncio.run(measure(name, args.seed, args.versions, args.all_parts)))


if __name__ == "__main__":
    main()
