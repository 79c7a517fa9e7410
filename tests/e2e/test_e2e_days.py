"""Playing over days in real browsers: a correspondence Chouine game between two people
across a server restart, the push subscription made in the page and the encrypted
« À vous de jouer » received by a local push service; the manifest, the service worker and
its offline page."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import browser_fixture, players_fixture, serving  # noqa: F401 (fixtures)
from e2e_flow import chouine_move, play_until, version
from e2e_server import LiveServer, shoot
from e2e_tables import code_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from pushstub import Device, PushStub

pytestmark = [pytest.mark.e2e]

#: the browser's PushManager answers with the test's own device (headless Chromium has no
#: push service): everything after it (the page, the server, pywebpush) is the real thing
FAKE_PUSH = """
(() => {
  const sub = %s;
  const made = { endpoint: sub.endpoint, toJSON: () => sub, unsubscribe: async () => true };
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    window.__pushKey = options.applicationServerKey;
    current = made;
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
  Notification.requestPermission = async () => "granted";
})();
"""


@pytest.fixture(name="days_server")
def days_server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "days.sqlite3", push_allow_local=True) as server:
        yield server


def create_correspondence_table(page: Any, base: str, on_timeout: str = "bot") -> str:
    page.goto(f"{base}/nouvelle?jeu=chouine")
    page.fill("input[name=pseudo]", "Alice")
    page.select_option("select[name=joueurs]", "2")
    page.select_option("select[name=place_1]", "human")
    page.select_option("select[name=correspondance]", "86400")
    page.select_option("select[name=echeance]", on_timeout)
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#invite-link", state="attached")  # folded under « Inviter » once live
    return str(page.input_value("#invite-link"))


def pushes_for(stub: PushStub, path: str) -> list[Any]:
    return [r for r in stub.received if r.path == path]


def test_a_correspondence_chouine_across_a_restart_with_push(days_server, players) -> None:  # type: ignore[no-untyped-def]
    device = Device()
    with PushStub() as stub:
        alice, bob = players(), players(phone=True)
        bob.context.add_init_script(FAKE_PUSH % json.dumps(device.subscription(f"{stub.url}/bob")))
        link = create_correspondence_table(alice.page, days_server.url)
        bob.page.goto(link)
        bob.page.fill(".join-form input[name=pseudo]", "Bob")
        bob.page.click(".join-form button[type=submit]")
        for page in (alice.page, bob.page):
            page.wait_for_selector(".cq-hand .card")
        assert "correspondance" in alice.page.inner_text("#log")
        # a day per move: the countdown says hours, not seconds
        alice.page.wait_for_selector(".countdown-figure >> text=/\\d+ h \\d+ min/")

        bob.page.click("#push-switch")
        bob.page.wait_for_selector("#push-switch[aria-pressed=true]")
        key = days_server.app.state.push.public_key
        assert bob.page.evaluate("window.__pushKey") == key
        shoot(bob.page, "table-correspondence")

        pages = [alice.page, bob.page]
        play_until(pages, chouine_move, lambda: len(pushes_for(stub, "/bob")) >= 1, timeout=60)
        first = pushes_for(stub, "/bob")[0]
        payload = device.read(first.body)
        code = code_of(link)  # a private table's link carries its key
        assert payload["url"] == f"/t/{code}" and payload["title"] == "À vous de jouer"

        # the server restarts: same key, the game goes on, Bob is told again when his turn comes
        at = version(alice.page)
        days_server.restart()
        for page in pages:
            page.wait_for_selector("#banner", state="hidden", timeout=20_000)
        seen = len(pushes_for(stub, "/bob"))
        play_until(
            pages,
            chouine_move,
            lambda: version(alice.page) > at + 2 and len(pushes_for(stub, "/bob")) > seen,
            timeout=60,
        )
        after = pushes_for(stub, "/bob")[-1]
        assert device.read(after.body)["url"] == f"/t/{code}"
        assert f"k={key}" in after.headers["authorization"].replace(" ", "")
        assert days_server.app.state.push.public_key == key
        assert "robot" not in alice.page.inner_text("#seats")  # nobody was replaced
        assert not alice.errors and not bob.errors


def test_an_abandoned_correspondence_game_says_so_and_offers_no_turn_alerts(
    days_server, players, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players(), players(phone=True)
    link = create_correspondence_table(alice.page, days_server.url, "abandon")
    bob.page.goto(link)
    bob.page.fill(".join-form input[name=pseudo]", "Bob")
    bob.page.click(".join-form button[type=submit]")
    bob.page.wait_for_selector("#push-switch")
    # the days go by while the server is down: at its restart the deadline has passed
    days_server.stop()
    with sqlite3.connect(tmp_path / "days.sqlite3") as db:
        db.execute("update correspondence set due_at = '2000-01-01 00:00:00.000000'")
    days_server.start()
    bob.page.goto(link)
    bob.page.wait_for_function(
        "() => window.chouxTable && window.chouxTable.current.status === 'over'"
    )
    status = bob.page.inner_text("#status-line")
    assert "abandonnée" in status and "terminée" not in status, status
    assert "abandonnée, non classée" in bob.page.inner_text("#log")
    # the end panel all the same: no ranking, but the way to play again (it stayed hidden)
    assert bob.page.locator("#result").is_visible()
    assert bob.page.inner_text("#result-title") == "Partie abandonnée"
    assert bob.page.locator("#rematch-form button").is_visible()
    assert not bob.page.locator("#result-list").is_visible()
    bob.page.wait_for_timeout(300)  # the e-mail form comes after a request
    assert not bob.page.locator("#push-switch").is_visible()
    assert not bob.page.locator("#email-form").is_visible()
    assert not alice.errors and not bob.errors


def test_the_manifest_service_worker_and_offline_page_load(days_server, players) -> None:  # type: ignore[no-untyped-def]
    person = players(phone=True)
    page = person.page
    page.goto(days_server.url + "/")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert scope.endswith("/sw.js")
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        status = page.evaluate(f"fetch('{icon['src']}').then((r) => r.status)")
        assert status == 200, icon
    page.wait_for_timeout(300)  # the worker has cached the offline page at install
    person.context.set_offline(True)
    page.goto(days_server.url + "/nouvelle")
    assert "Pas de connexion" in page.inner_text("main")
    person.context.set_offline(False)
    page.click("#offline-retry")  # the page that failed again, not the lobby
    page.wait_for_selector("#new-table")
    assert page.url == days_server.url + "/nouvelle"
    assert not person.errors
