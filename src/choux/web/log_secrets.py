"""A log filter that keeps one-time secrets out of the journal: the access log wrote every
request's path with its query, and so the password-reset and address-confirmation links'
tokens (`?jeton=`) and private tables' keys (`?cle=`), at the level the docs recommend for
fail2ban; whoever read the journal within the hour could reset a password."""

from __future__ import annotations

import logging
import re

#: query parameters that carry a secret, their value masked
_SECRET_QUERY = re.compile(r"([?&](?:jeton|cle|token|key)=)[^&\s\"]*", re.IGNORECASE)


def masked(text: str) -> str:
    """`text` with the values of secret query parameters replaced by « … ».

    >>> masked("GET /mot-de-passe/nouveau?jeton=abc123&x=1 HTTP/1.1")
    'GET /mot-de-passe/nouveau?jeton=…&x=1 HTTP/1.1'
    >>> masked("/t/ab12cd?cle=s3cret"), masked("/t/ab12cd")
    ('/t/ab12cd?cle=…', '/t/ab12cd')
    """
    return _SECRET_QUERY.sub(r"\1…", text)


class HideSecrets(logging.Filter):
    """Masks secret query values in a record's message and its string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = masked(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(masked(a) if isinstance(a, str) else a for a in record.args)
        return True
