"""SQLite on a small real filesystem that fills up mid-game: no acknowledged move lost,
a French refusal, memory at the stored version, and play resumes once there is room."""

from __future__ import annotations

from pathlib import Path

from faulthelpers import (
    Acks,
    check_stored,
    duel,
    fault_settings,
    fill,
    next_move,
    play,
    play_until_refused,
    running,
    small_disk,
)

from choux.play.errors import NOT_STORED, TableError


async def test_a_full_disk_refuses_the_move_and_the_table_plays_on_once_freed(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        settings = fault_settings(f"sqlite:///{disk / 'choux.sqlite3'}")
        acks = Acks()
        async with running(settings) as service:
            table = await duel(service)
            code = table.code
            await play(service, table, acks, 4)
            filler = fill(disk)
            refusal = await play_until_refused(service, table, acks)
            assert refusal.message == NOT_STORED
            stored = await service.store.versions([code])
            assert table.version == stored[code][0] == max(acks.moves)  # memory = store
            move = await next_move(table)
            assert move is not None
            try:  # still full: refused again, nothing changes
                await service.act(table, move[0], move[1], "again")
                raise AssertionError("a move was acknowledged on a full disk")
            except TableError as error:
                assert error.kind == "unavailable"
            assert table.version == max(acks.moves)
            # the health check says so (it answered « ok »: a balancer kept sending players)
            problem = await service.store.health()
            assert problem is not None and "ne sont plus enregistrés" in problem, problem
            filler.unlink()
            assert await service.store.health() is None  # its own write probe: room again
            await play(service, table, acks, 6)  # the writer is alive: the table plays on
            assert max(acks.moves) >= stored[code][0] + 6
            await check_stored(service, code, acks)
        async with running(settings) as service:  # after a restart, nothing is missing
            table = await service.get(code)
            assert table.version >= max(acks.moves)
            await check_stored(service, code, acks)
            await play(service, table, acks, 2)
