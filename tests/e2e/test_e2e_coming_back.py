"""What players coming back over days met (an outside audit): clocks after a server restart,
a correspondence move clock, the offline banner, the e-mail form on live tables, names cut
on a phone, a chat line lost with the server, the way back to a table after logging in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
    serving,
)
from e2e_flow import create_table, join
from e2e_server import SCREENSHOTS as SHOTS
from e2e_server import LiveServer

pytestmark = [pytest.mark.e2e]


SMALL_PHONE = {"width": 360, "height": 740}


def shot(page: Any, name: str) -> None:
    """What the change looks like on a small phone, into screenshots/ (gitignored)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def site_page(live_server: Any, players: Any, phone: bool = False) -> Any:
    """A page of the site, to import its modules from a test."""
    page = players(phone).page
    page.goto(live_server.url + "/")
    return page


def test_a_clock_follows_a_window_armed_again_at_the_same_version(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """A restarted server reopens a race after a quiet moment with a new `deadline` at the
    same version: the clock kept the first end and read « 0.0 s » while the race was open.
    It follows a new end more than a second away, yet a redraw of the same message, or a new
    message of the same window, does not start it again."""
    page = site_page(live_server, players)
    result = page.evaluate(
        """async () => {
          const w = await import("/static/js/widgets.js");
          const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
          const out = {};
          const first = { version: 7, deadline: 0.2 };
          w.secondsLeft(first);
          await sleep(300);
          out.closed = w.secondsLeft(first);                 // the window ran out
          const restored = { version: 7, deadline: 8 };      // armed again at the same version
          out.restored = w.secondsLeft(restored);
          out.length = w.windowLength(restored);
          const window = { version: 8, deadline: 10 };
          w.secondsLeft(window);
          await sleep(1200);
          out.redrawn = w.secondsLeft(window);               // the same message drawn again
          const same = { version: 8, deadline: 8.5 };        // the same window, later message
          out.same = w.secondsLeft(same);
          out.sameLength = w.windowLength(same);
          const move = { version: 9, deadline: null, move_clock: 3600 };
          out.move = w.secondsLeft(move, "move_clock");
          out.noWindow = w.secondsLeft(move);
          return out;
        }"""
    )
    assert result["closed"] == 0
    assert 7.5 < result["restored"] <= 8 and result["length"] == 8
    assert 8.3 < result["redrawn"] < 9.0
    assert 8.3 < result["same"] < 9.0 and result["sameLength"] == 10
    assert 3599 < result["move"] <= 3600
    assert result["noWindow"] is None


def test_a_move_clock_of_an_hour_reads_in_minutes(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """A « 1 heure » correspondence move clock read « ⏱ 3597 s »: minutes and seconds from a
    minute up, seconds below, hours and days as before."""
    page = site_page(live_server, players)
    texts = page.evaluate(
        """async () => {
          const { clockText } = await import("/static/js/widgets.js");
          return [59, 60, 3597, 3600, 43199, 2 * 86400 + 5 * 3600 + 12].map(clockText);
        }"""
    )
    assert texts == ["59 s", "1 min 0 s", "59 min 57 s", "1 h 0 min", "11 h 59 min", "2 j 5 h"]


@pytest.fixture(name="mail_server")
def mail_server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    """A server that sends e-mails (to nowhere: no turn is mailed while a page is open)."""
    with serving(tmp_path / "mail.sqlite3", smtp_url="smtp://127.0.0.1:9") as server:
        yield server


def test_turn_alerts_are_offered_at_correspondence_tables_only(
    mail_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """« Me prévenir quand c'est mon tour » and « Ou par e-mail » showed at live tables,
    where no alert is ever sent: a correspondence table's page alone offers them."""
    page = players().page
    create_table(page, mail_server.url, "chouine", "Alice", ["human", "bot:random"])
    page.wait_for_selector(".cq-hand .card")
    page.wait_for_timeout(500)  # the e-mail form comes after a request
    assert page.locator("#push-switch").count() == 0
    assert page.locator("#email-form").count() == 0

    page.goto(f"{mail_server.url}/nouvelle?jeu=chouine")
    page.fill("input[name=pseudo]", "Alice")
    page.select_option("select[name=joueurs]", "2")
    page.select_option("select[name=place_1]", "human")
    page.select_option("select[name=correspondance]", "86400")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#email-form")
    assert page.locator("#push-switch").is_visible()
    assert "Ou par e-mail" in page.inner_text("#email-form")


#: a WebSocket the test drives: it records what the page sends, delivers and closes
FAKE_SOCKET = """
window.sockets = [];
window.WebSocket = class {
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.readyState = 0; this.sent = []; this.listeners = {};
    window.sockets.push(this);
    setTimeout(() => { this.readyState = 1; this.emit("open", {}); }, 0);
  }
  addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
  emit(kind, event) { for (const fn of this.listeners[kind] || []) fn(event); }
  deliver(message) { this.emit("message", { data: JSON.stringify(message) }); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  die() { this.readyState = 3; this.emit("close", { code: 1006 }); }
};
"""


def chat_message(lines: list[dict[str, Any]], full: bool = False) -> dict[str, Any]:
    return {"type": "chat", "room": "players", "full": full, "lines": lines, "muted": []}


def test_a_chat_line_the_server_never_got_is_not_lost(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """A line sent just before the server died left the field and vanished: it shows
    « envoi… » until the server sends it back, and « non envoyé », its text back in the
    field, when the socket closes first."""
    alice = players(phone=True)
    link = create_table(alice.page, live_server.url, "chouine", "Alice", ["human", "bot:random"])
    page = alice.open()
    page.set_viewport_size(SMALL_PHONE)
    page.add_init_script(FAKE_SOCKET)
    page.goto(link)
    page.wait_for_function("() => window.sockets && window.sockets[0]?.readyState === 1")
    hello = chat_message([], full=True) | {"me": "s0", "host": True}
    page.evaluate("(m) => window.sockets[0].deliver(m)", hello)

    page.fill("#chat-input", "On se revoit demain ?")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector(".chat-line.sending >> text=envoi…")
    assert page.input_value("#chat-input") == ""
    line = {"id": 1, "room": "players", "who": "s0", "name": "Alice", "at": 0}
    back = chat_message([line | {"text": "On se revoit demain ?"}]) | {"me": "s0"}
    page.evaluate("(m) => window.sockets[0].deliver(m)", back)
    page.wait_for_selector(".chat-line.sending", state="detached")
    assert page.locator(".chat-line.mine").count() == 1

    page.fill("#chat-input", "Je dois filer")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector(".chat-line.sending")
    page.evaluate("() => window.sockets[0].die()")  # the server is killed
    page.wait_for_selector(".chat-line.unsent >> text=non envoyé")
    assert page.input_value("#chat-input") == "Je dois filer"
    assert "non envoyé" in page.inner_text("#chat-note")
    page.locator("#chat").scroll_into_view_if_needed()
    shot(page, "chat-unsent-360")

    # back: sent again, one line for it, gone once the server has it
    page.wait_for_function(
        "() => window.sockets.length === 2 && window.sockets[1].readyState === 1"
    )
    page.click("#chat-form button[type=submit]")
    assert page.locator(".chat-line.unsent").count() == 0
    assert page.locator(".chat-line.sending").count() == 1
    sent = page.evaluate("() => window.sockets[1].sent.filter((m) => m.type === 'chat')")
    assert sent == [{"type": "chat", "text": "Je dois filer"}]
    assert not alice.errors


OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  return [...document.querySelectorAll(b)].some((n) => {
    const s = n.getBoundingClientRect();
    return s.height > 0 && r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
  });
}"""


def test_the_offline_banner_covers_no_control_on_a_phone(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """Offline on a 360 px phone, the banner lay over the title and Chouineurs' secret
    choice (« Main à l'endroit / Main retournée »), which can still be played (the move goes
    on return); and it said the game would wait, which it does not."""
    alice = players(phone=True)
    page = alice.page
    page.set_viewport_size(SMALL_PHONE)
    create_table(
        page, live_server.url, "chouineurs", "Alice", ["human", "bot:random", "bot:random"]
    )
    page.wait_for_selector(".cx-chooser [data-orientation=envers]")
    page.evaluate("() => window.scrollTo(0, 0)")
    alice.context.set_offline(True)
    try:
        page.wait_for_selector("#banner:not([hidden])", timeout=3000)
        text = page.inner_text("#banner")
        assert text.startswith("Hors ligne") and "reprendra" not in text, text
        assert "ne vous attend pas" in text
        page.wait_for_timeout(200)
        shot(page, "offline-banner-top-360")
        assert not page.evaluate(OVERLAP, ["#banner", "h1, #status-line"])
        page.evaluate(
            "() => document.querySelector('.cx-orient-choice').scrollIntoView({ block: 'center' })"
        )
        assert not page.evaluate(OVERLAP, ["#banner", ".cx-orient-choice button, .cx-confirm"])
        # the very end of the page scrolls out from under it
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(100)
        shot(page, "offline-banner-bottom-360")
        room = page.evaluate(
            """() => {
              const banner = document.getElementById("banner").getBoundingClientRect();
              const last = [...document.querySelectorAll(".panel, footer")]
                .filter((n) => n.getClientRects().length)
                .map((n) => n.getBoundingClientRect().bottom);
              return banner.top - Math.max(...last);
            }"""
        )
        assert room >= 0, room
        # a move made offline is kept for the return
        page.click("[data-orientation=envers]")
        page.click(".cx-betcard >> nth=0")
        page.click(".cx-confirm")
    finally:
        alice.context.set_offline(False)
    page.wait_for_selector("#banner", state="hidden", timeout=10000)
    page.wait_for_selector(".cx-chooser", state="detached")
    assert not alice.errors


ROBOT_LINES = """() => [...document.querySelectorAll(".cx-name")].map((node) => {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let text = "";
  const parts = [];
  while (walker.nextNode()) { parts.push([walker.currentNode, text.length]); text += walker.currentNode.data; }
  const at = text.indexOf("(robot)");
  if (at < 0) return null;
  const place = (i) => { const [n, from] = parts.filter(([, from]) => from <= i).pop(); return [n, i - from]; };
  range.setStart(...place(at));
  range.setEnd(...place(at + 6));
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}).filter((n) => n !== null)"""


@pytest.fixture(name="grace_server")
def grace_server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose robots take a seat half a second after its person left."""
    with serving(tmp_path / "grace.sqlite3", grace_seconds=0.5) as server:
        yield server


def test_a_robot_s_name_keeps_its_suffix_whole_on_a_phone(
    grace_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """At 360 px « Katia (robot) » broke inside the word (« (robo » / « t) ») in Chouineurs'
    seat panel."""
    alice, katia = players(phone=True), players(phone=True)
    page = alice.page
    page.set_viewport_size(SMALL_PHONE)
    seats = ["human", "human", "bot:random", "bot:random", "bot:random"]
    link = create_table(page, grace_server.url, "chouineurs", "Alice", seats)
    join(katia.page, link, "Katia")
    katia.page.wait_for_selector(".cx-chooser")
    katia.page.close()  # gone: a robot takes her seat
    page.wait_for_selector(".cx-name >> text=Katia (robot)", timeout=20_000)
    page.locator(".cx-name >> text=Katia (robot)").scroll_into_view_if_needed()
    shot(page, "chouineurs-robot-name-360")
    lines = page.evaluate(ROBOT_LINES)
    assert lines and all(n == 1 for n in lines), lines
    # a score of « 12 points » leaves less room for the name, as on the smallest phones
    lines = page.evaluate(
        """(measure) => {
          for (const node of document.querySelectorAll(".cx-score")) node.textContent = "12 points";
          return eval(measure)();
        }""",
        ROBOT_LINES,
    )
    shot(page, "chouineurs-robot-name-narrow")
    assert lines and all(n == 1 for n in lines), lines
    assert not alice.errors


FITS = """(selector) => {
  const select = document.querySelector(selector);
  const style = getComputedStyle(select);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  // the room for the text: the box less its paddings and the arrow (about 1.6em)
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - 1.6 * parseFloat(style.fontSize);
  return [...select.options].filter((o) => pen.measureText(o.text).width > room).map((o) => o.text);
}"""


def test_the_correspondence_choice_fits_a_phone_and_says_things_once(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """At 360 px the correspondence select was cut (« non : tout le monde joue en m… ») and
    the hint under it said it again: short options, the hint explains."""
    page = players(phone=True).page
    page.set_viewport_size(SMALL_PHONE)
    page.goto(f"{live_server.url}/nouvelle?jeu=chouineurs")
    page.locator("#correspondence").scroll_into_view_if_needed()
    shot(page, "form-correspondence-360")
    assert page.evaluate(FITS, "#correspondence-time") == []
    assert page.locator("#correspondence .choice-echo").count() == 0  # not said twice
    hint = page.inner_text("#correspondence-hint")
    for option in page.locator("#correspondence-time option").all_inner_texts():
        assert option not in hint, (option, hint)
    page.select_option("#correspondence-time", "86400")
    shot(page, "form-correspondence-days-360")
    assert "plusieurs jours" in page.inner_text("#correspondence-hint")
    assert page.evaluate(FITS, "select[name=echeance]") == []
