"""« À vous de jouer » by web push: VAPID key kept, subscriptions checked, the encrypted
notification reaches the device's push service, gone or broken subscriptions dropped."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from pushstub import Device, PushStub
from test_web_correspondence import create_days_table
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, csrf_of, join, other, receive_state, wait_for

from choux.play import push_store


def subscribe(c: Any, code: str, data: object, csrf: str | None = None) -> Any:
    token = csrf if csrf is not None else csrf_of(c.get(f"/t/{code}").text)
    return c.post(
        "/push/abonnement",
        content=json.dumps(data),
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )


def subscriptions(c: Any) -> list[Any]:
    store = c.app.state.store
    players = [c.app.state.sessions.load(c).player]
    return list(c.portal.call(push_store.of_players, store, players))


def test_the_vapid_key_is_made_once_and_kept(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        first = c.get("/push/cle").json()["key"]
    with client(sqlite_url) as c:
        assert c.get("/push/cle").json()["key"] == first
    assert len(first) == 87  # an uncompressed P-256 point, base64url


def test_bad_subscriptions_are_refused_in_french(sqlite_url: str) -> None:
    device = Device()
    good = device.subscription("https://push.example.org/abc")
    bad_key = {**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}
    with client(sqlite_url) as c:
        code = create_days_table(c, "chouine")
        for data in (
            None,
            [1],
            {"endpoint": "https://push.example.org/x"},
            {**good, "endpoint": "http://push.example.org/x"},  # not https
            {**good, "endpoint": "https://127.0.0.1/x"},  # a local address
            {**good, "endpoint": "https://x/" + "y" * 1000},
            bad_key,
        ):
            answer = subscribe(c, code, data)
            assert answer.status_code == 400, data
            assert "illisible" in answer.json()["message"]
        assert subscribe(c, code, good, csrf="forged").status_code == 403
        assert subscriptions(c) == []
        assert subscribe(c, code, good).status_code == 200
        assert [s.endpoint for s in subscriptions(c)] == [good["endpoint"]]


def test_the_person_to_play_gets_an_encrypted_notification(sqlite_url: str) -> None:
    devices = {"alice": Device(), "bob": Device()}
    with PushStub() as stub, client(sqlite_url, push_allow_local=True) as alice:
        code = create_days_table(alice, "chouine")
        assert subscribe(alice, code, devices["alice"].subscription(f"{stub.url}/alice")).is_success
        bob = other(alice)
        assert subscribe(bob, code, devices["bob"].subscription(f"{stub.url}/bob")).is_success
        join(bob, code, "Bob")
        table = alice.app.state.service.tables[code]
        wait_for(lambda: len(stub.received) == 1)
        waited = table.state.actors()[0]
        who = "alice" if waited == 0 else "bob"
        push = stub.received[0]
        assert push.path == f"/{who}"
        assert push.headers["content-encoding"] == "aes128gcm"
        assert push.headers["authorization"].startswith("vapid t=")
        assert alice.get("/push/cle").json()["key"] in push.headers["authorization"]
        payload = devices[who].read(push.body)
        assert payload["url"] == f"/t/{code}" and code in payload["body"]
        assert payload["title"] == "À vous de jouer"

        # the push service says the subscription is gone: dropped, the game goes on
        stub.status = 410
        player = alice if who == "alice" else bob
        with player.websocket_connect(f"/t/{code}/ws") as ws:
            legal = receive_state(ws)["view"]["legal"]
            ws.send_json({"type": "action", "id": "m1", "action": legal[0]["action"]})
            wait_for(lambda: table.version == 1)
        other_one = bob if who == "alice" else alice
        wait_for(lambda: len(stub.received) == 2)
        wait_for(lambda: subscriptions(other_one) == [])
        assert alice.app.state.push.dropped == 1
        assert len(subscriptions(player)) == 1


def test_a_subscription_the_library_cannot_use_is_dropped_quietly(sqlite_url: str) -> None:
    with PushStub() as stub, client(sqlite_url, push_allow_local=True) as alice:
        push = alice.app.state.push
        good = Device().subscription(f"{stub.url}/x")
        # a point that passes the shape check but is not on the curve
        broken = {**good, "keys": {**good["keys"], "p256dh": "BA" + "A" * 85}}
        store = alice.app.state.store
        sub = push_store.Subscription(
            broken["endpoint"], broken["keys"]["p256dh"], good["keys"]["auth"]
        )
        alice.portal.call(push_store.save, store, "someone", sub)
        assert alice.portal.call(push.send, sub, "{}") is False
        assert alice.portal.call(push_store.of_players, store, ["someone"]) == []
        assert stub.received == []


def test_one_person_keeps_at_most_max_devices_subscriptions(sqlite_url: str) -> None:
    """A script subscribing endlessly for one identity cannot grow the list of endpoints the
    server posts to: beyond MAX_DEVICES, the oldest subscriptions go."""
    with client(sqlite_url) as c:
        store = c.app.state.store
        endpoints = [
            f"https://push.example.org/device/{n}" for n in range(push_store.MAX_DEVICES + 5)
        ]
        for endpoint in endpoints:
            sub = push_store.Subscription(endpoint, "B" + "A" * 86, "A" * 22)
            c.portal.call(push_store.save, store, "flooder", sub)
        kept = c.portal.call(push_store.of_players, store, ["flooder"])
        assert len(kept) == push_store.MAX_DEVICES
        assert {s.endpoint for s in kept} == set(endpoints[-push_store.MAX_DEVICES :])
        other_sub = push_store.Subscription(
            "https://push.example.org/other", "B" + "A" * 86, "A" * 22
        )
        c.portal.call(push_store.save, store, "someone-else", other_sub)
        assert len(c.portal.call(push_store.of_players, store, ["someone-else"])) == 1


def test_a_name_that_leads_to_the_servers_own_network_gets_no_post(sqlite_url: str) -> None:
    """The endpoint's text passes (an https name, not « localhost », not an address), but
    the name resolves to a private or loopback address: the server must not post there (it
    did, to a listener on 127.0.0.1, found by an audit); the subscription is dropped."""
    import ipaddress
    import socket

    from choux.play.errors import TableError
    from choux.web.push import parse_subscription

    host = socket.gethostname()
    try:
        addresses = {a[4][0] for a in socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)}
    except OSError:
        pytest.skip(f"this machine's name {host!r} does not resolve")
    if all(ipaddress.ip_address(a.split("%")[0]).is_global for a in addresses):
        pytest.skip(f"this machine's name {host!r} resolves to public addresses only")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    with listener, client(sqlite_url) as alice:
        endpoint = f"https://{host}:{port}/push"
        data = Device().subscription(endpoint)
        with pytest.raises(TableError):
            parse_subscription(data)  # a port other than 443: refused at once
        # the text of one on 443 is acceptable; the post still goes nowhere of ours
        sub = dataclasses.replace(
            parse_subscription(Device().subscription(f"https://{host}/push")), endpoint=endpoint
        )
        store = alice.app.state.store
        alice.portal.call(push_store.save, store, "someone", sub)
        assert alice.app.state.push.settings.push_allow_local is False
        assert alice.portal.call(alice.app.state.push.send, sub, "{}") is False
        assert alice.portal.call(push_store.of_players, store, ["someone"]) == []
        with pytest.raises(TimeoutError):
            listener.accept()  # nobody knocked


def test_an_endpoint_off_port_443_is_refused() -> None:
    """Browsers' push services answer on 443: an endpoint on another port let a visitor
    have the server post, at each turn, to any public service they chose (a relay)."""
    from choux.play.errors import TableError
    from choux.web.push import parse_subscription

    for endpoint in ("https://push.example.org:8443/x", "https://push.example.org:99999/x"):
        with pytest.raises(TableError):
            parse_subscription(Device().subscription(endpoint))
    for endpoint in ("https://push.example.org/x", "https://push.example.org:443/x"):
        assert parse_subscription(Device().subscription(endpoint)).endpoint == endpoint
