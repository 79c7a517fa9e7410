"""The visitor's cookie stays under what browsers keep (4,096 bytes): a phone playing
shared-screen tables one after the other grew it past that, the browser kept the old one
without a word, and every later seat (and log-in) of that phone was lost."""

from __future__ import annotations

import secrets

from hypothesis import given
from hypothesis import strategies as st

from choux.web.session import MAX_COOKIE, Session, Sessions


def cookie_value(header: str) -> str:
    return header.split(";", 1)[0].split("=", 1)[1]


def test_a_phone_playing_shared_screen_tables_all_evening_keeps_its_newest_seats() -> None:
    sessions = Sessions("test-secret")
    session = Session()
    for table in range(40):
        code = f"t{table:07d}"
        session.remember(code, 0, secrets.token_urlsafe(18), "Alice")
        for seat in range(1, 8):  # Cul de Chouette at 8 on one phone
            session.remember_shared(code, seat, secrets.token_urlsafe(18))
        session.remember_invite(f"i{table:07d}")
        header = sessions.set_cookie_header(session)
        assert header is not None
        assert len("choux=" + cookie_value(header)) <= 4096
        back = sessions.load_value(cookie_value(header))
        # the table just played is whole: its seat and its seven shared seats
        assert back.seat_at(code) is not None
        assert [s for s, _ in back.shared_at(code)] == list(range(1, 8))
        assert back.player == session.player and back.csrf == session.csrf


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 7)), max_size=300))
def test_whatever_is_remembered_the_cookie_fits(moves: list[tuple[int, int]]) -> None:
    sessions = Sessions("test-secret")
    session = Session(dirty=True)
    for table, seat in moves:
        code = f"c{table:07d}"
        if seat:
            session.remember_shared(code, seat, secrets.token_urlsafe(18))
        else:
            session.remember(code, 0, secrets.token_urlsafe(18), "x" * 40)
        session.remember_watching(code)
    header = sessions.set_cookie_header(session)
    assert header is not None and len(cookie_value(header)) <= MAX_COOKIE
