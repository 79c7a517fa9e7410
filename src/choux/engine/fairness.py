"""Provably fair tables: a secret seed nobody can guess, committed to before the game.

Each table draws its seed from the operating system's cryptographic source (`secrets`,
SEED_BITS bits). Its commitment, the SHA-256 of the seed written in decimal after a fixed
prefix, is shown on the table page from creation; the finished game's record reveals the
seed, so anyone can check that the deal was fixed before the first card and replay it.
The seed is far too large to guess, so the hash needs no extra salt.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BITS = 128
PREFIX = b"choux-seed/1:"


def new_seed() -> int:
    """A fresh table seed: SEED_BITS bits from the operating system's secure source."""
    return secrets.randbits(SEED_BITS)


def commitment(seed: int) -> str:
    """The public commitment to `seed` (64 hex digits)."""
    return hashlib.sha256(PREFIX + str(seed).encode()).hexdigest()


def matches(seed: int, claimed: str) -> bool:
    """Does `claimed` (as shown on the table page) commit to `seed`?"""
    return hmac.compare_digest(commitment(seed).encode(), claimed.strip().lower().encode())
