"""The service worker's « À vous de jouer »: shown when the table is not on screen, not shown
while that table's page is open and visible (the push is delivered through Chromium's
DevTools protocol, as a push service would)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def registration_id(cdp: Any, page: Any) -> str:
    found: dict[str, str] = {}
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.update(
            (r["scopeURL"], r["registrationId"]) for r in event["registrations"]
        ),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not found and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert found, "no service worker registration seen"
    return next(iter(found.values()))


def notifications(page: Any) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """navigator.serviceWorker.ready.then((r) => r.getNotifications()).then(
                (list) => list.map((n) => ({title: n.title, body: n.body, tag: n.tag})))"""
        )
    )


def test_a_notification_is_shown_unless_its_table_is_on_screen(live_server, players) -> None:  # type: ignore[no-untyped-def]
    person = players(phone=True)
    base = live_server.url
    person.context.grant_permissions(["notifications"], origin=base)
    page = person.page
    page.goto(base + "/regles/chouine")
    page.evaluate("navigator.serviceWorker.ready")
    cdp = person.context.new_cdp_session(page)
    reg = registration_id(cdp, page)

    def push(code: str) -> None:
        data = {
            "title": "À vous de jouer",
            "body": f"table {code}",
            "url": f"/t/{code}",
            "tag": f"choux-{code}",
        }
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": base, "registrationId": reg, "data": json.dumps(data)},
        )

    # the page shows the rules, not table abcd: the notification is shown
    push("abcd")
    deadline = time.monotonic() + 10
    while not notifications(page) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert [n["tag"] for n in notifications(page)] == ["choux-abcd"]

    # now the page is at table abcd2's address (a 404 page is enough: same path) and visible
    page.goto(base + "/t/abcd2")
    page.evaluate("navigator.serviceWorker.ready")
    push("abcd2")
    page.wait_for_timeout(1500)
    assert "choux-abcd2" not in [n["tag"] for n in notifications(page)]

    # the same push once the page has left that table: shown (the delivery itself works)
    # (sent again every 2 s: on a loaded machine the worker may be restarting as the page
    # navigates, and a message delivered meanwhile is dropped by Chromium, not by Choux)
    page.goto(base + "/regles/chouine")
    page.evaluate("navigator.serviceWorker.ready")
    deadline = time.monotonic() + 20
    sent_at = 0.0
    while "choux-abcd2" not in [n["tag"] for n in notifications(page)]:
        assert time.monotonic() < deadline, "the second notification never came"
        if time.monotonic() - sent_at > 2:
            push("abcd2")
            sent_at = time.monotonic()
        page.wait_for_timeout(100)
