"""The table service: seats and tokens, the per-table lock, the action log, clocks, bots.

It knows the engine and the games, never the web: the web floor talks to `TableService`.
"""
