"""Engine benchmark: random playouts per second per game and bots' time per decision.

Run: `make bench` (or `.venv/bin/choux bench --seconds 5`). Results go in docs/perf.md.
"""

from choux.cli import main

if __name__ == "__main__":
    main(["bench", "--seconds", "5"])
