"""French wording shared by every game's texts and pages: counted words, lists of names."""

from __future__ import annotations

from collections.abc import Sequence


def counted(count: int, word: str) -> str:
    """`count` `word`, plural from 2 on: in French 0 and 1 take the singular.

    >>> counted(0, "point"), counted(1, "pli"), counted(12, "carte")
    ('0 point', '1 pli', '12 cartes')
    """
    return f"{count} {word}{'s' if count > 1 else ''}"


def points_text(count: int) -> str:
    """« 0 point », « 1 point », « 12 points ».

    >>> points_text(1), points_text(2)
    ('1 point', '2 points')
    """
    return counted(count, "point")


def joined(names: Sequence[str]) -> str:
    """Names as a French list: commas, then « et » before the last.

    >>> joined([]), joined(["Anne"]), joined(["Anne", "Bruno"]), joined(["Anne", "Bruno", "Chloé"])
    ('', 'Anne', 'Anne et Bruno', 'Anne, Bruno et Chloé')
    """
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " et " + names[-1]


def sentence(text: str) -> str:
    """`text` ending as a sentence does: a full stop added unless it has its own mark.

    >>> sentence("343 points atteints"), sentence("Fin du match."), sentence("Bravo !")
    ('343 points atteints.', 'Fin du match.', 'Bravo !')
    """
    stripped = text.rstrip()
    return stripped if not stripped or stripped[-1] in ".!?…" else stripped + "."
