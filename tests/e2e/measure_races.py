"""Measure the fairness of Cul de Chouette races on loopback (see docs/races.md).

Two Chromium pages (a desktop and a phone context) sit at one real-dice table with a bot;
on each of Perceval's turns he types a Chouette Velute (2-2-4) and both people press
« Pas mou le caillou ! » one after the other. We record, per press:

- in the page: the pointer-down, the WebSocket send, the answer (ack or refusal);
- in the server (same process): the arrival in `TableService.act` and the moment the
  action was applied (or refused), in the order the table lock served them.

Run: .venv/bin/python tests/e2e/measure_races.py [races]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from e2e_tables import DESKTOP, PHONE, chromium, create_table, current, join, live_server

from choux.play.service import TableService

INSTRUMENT = """
(() => {
  window.__races = [];
  const sent = new Map();
  document.addEventListener("pointerdown", (e) => {
    if (e.target.closest && e.target.closest(".shout")) window.__lastPress = performance.now();
  }, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const m = JSON.parse(data);
      if (m.type === "action" && m.action.type === "crier") {
        sent.set(m.id, { press: window.__lastPress, sent: performance.now() });
      }
    } catch (e) {}
    if (!this.__instrumented) {
      this.__instrumented = true;
      this.addEventListener("message", (ev) => {
        const m = JSON.parse(ev.data);
        if ((m.type === "ack" || m.type === "refused") && sent.has(m.id)) {
          const s = sent.get(m.id);
          window.__races.push({ ...s, answer: performance.now(), kind: m.type });
          sent.delete(m.id);
        }
      });
    }
    return send.call(this, data);
  };
})();
"""

server_log: list[dict[str, Any]] = []


def instrument_service() -> None:
    original = TableService.act

    async def act(
        self: TableService, table: Any, seat: int, action: Any, client_id: Any = None
    ) -> int:
        arrived = time.perf_counter()
        entry: dict[str, Any] = {"seat": seat, "arrived": arrived, "action": action}
        try:
            version = await original(self, table, seat, action, client_id)
            entry["result"] = "applied"
            return version
        except Exception:
            entry["result"] = "refused"
            raise
        finally:
            entry["done"] = time.perf_counter()
            if isinstance(action, dict) and action.get("type") == "crier":
                server_log.append(entry)

    TableService.act = act  # type: ignore[method-assign]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def summary(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no sample"
    return (
        f"{name}: n={len(values)} p50={statistics.median(values):.1f} ms "
        f"p95={pct(values, 95):.1f} ms max={max(values):.1f} ms"
    )


def main(races: int) -> None:
    instrument_service()
    tmp = Path(tempfile.mkdtemp())
    with live_server(tmp, deadline_scale=0.5, bot_pace=0.1) as server, chromium() as browser:
        ca = browser.new_context(viewport=DESKTOP)
        cb = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        for c in (ca, cb):
            c.add_init_script(INSTRUMENT)
        pa, pb = ca.new_page(), cb.new_page()
        invite = create_table(
            pa,
            server.url,
            "cul-de-chouette",
            "Perceval",
            3,
            {0: "human", 1: "human", 2: "bot:easy"},
            {"des": '"reels"', "objectif": "343"},
        )
        join(pb, invite, "Karadoc", 1)
        done = 0
        gaps: list[float] = []
        deadline = time.monotonic() + 40 + 8 * races
        while done < races and time.monotonic() < deadline:
            for page, seat in ((pa, 0), (pb, 1)):
                c = current(page)
                if c["status"] != "live":
                    continue
                v = c["view"]
                if v["step"] == "chouette_velute" and page is pa:
                    t0 = time.perf_counter()
                    pa.locator('.shout[data-cry="Pas mou le caillou !"]').click()
                    pb.locator('.shout[data-cry="Pas mou le caillou !"]').click()
                    gaps.append((time.perf_counter() - t0) * 1000)
                    done += 1
                    pa.wait_for_timeout(300)
                    continue
                if page.locator(".dice-entry").count():
                    if v["tiebreak"] is not None:
                        values = [1] if seat == 0 else [6]
                    elif seat == 0 and v["roller"] == 0:
                        values = [2, 2] if v["step"] == "debut" else [4]
                    else:
                        values = [1, 3, 6]
                    inputs = page.locator(".dice-entry input")
                    for i in range(inputs.count()):
                        inputs.nth(i).fill(str(values[i % len(values)]))
                    page.locator(".dice-entry button[type=submit]").click()
                elif page.locator("[data-dialog=siroter]").count():
                    page.locator("[data-dialog=siroter] button").last.click()
                elif page.locator("[data-dialog=soufflette]").count():
                    page.locator("[data-dialog=soufflette] button").first.click()
            pa.wait_for_timeout(80)
        client = [r for p in (pa, pb) for r in p.evaluate("() => window.__races")]
    print(f"races: {done}")
    print(
        summary(
            "press -> WebSocket send (in the page)",
            [r["sent"] - r["press"] for r in client if r["press"]],
        )
    )
    print(summary("send -> answer (loopback + server)", [r["answer"] - r["sent"] for r in client]))
    print(
        summary(
            "server: arrival -> applied/refused",
            [(e["done"] - e["arrived"]) * 1000 for e in server_log],
        )
    )
    print(summary("Playwright gap between the two presses", gaps))
    order = [e["seat"] for e in sorted(server_log, key=lambda e: e["arrived"])]
    applied = [e["seat"] for e in sorted(server_log, key=lambda e: e["done"])]
    print(f"arrival order == application order: {order == applied}")
    pairs = [order[i : i + 2] for i in range(0, len(order) - 1, 2)]
    print(
        f"Perceval (pressed first) served first: {sum(1 for p in pairs if p == [0, 1])} of {len(pairs)}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
