"""Links mailed to people (a new password, an address to confirm) carry a token signed with
the server's key (itsdangerous): one way to read one back, whatever its purpose."""

from __future__ import annotations

from itsdangerous import BadData, URLSafeTimedSerializer


def read_token(
    serializer: URLSafeTimedSerializer, token: object, max_age: int, max_chars: int
) -> object:
    """The payload of a good token (signed by this key, younger than `max_age` seconds, at
    most `max_chars` long); None for anything else, garbage included."""
    if not isinstance(token, str) or not token or len(token) > max_chars:
        return None
    try:
        return serializer.loads(token, max_age=max_age)
    except BadData:
        return None
