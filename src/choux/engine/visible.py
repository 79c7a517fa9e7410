"""Whether a text shows anything: the checks « not empty » of chat lines, pseudonyms and
arguments read what a person would see, not the count of code points.

Some characters are letters or symbols for Unicode yet draw nothing (the Hangul fillers, the
blank Braille pattern); format characters (zero-width space, joiners, the byte-order mark)
and separators draw nothing either. A text made only of them looks empty, and passed the
checks that only trimmed spaces.
"""

from __future__ import annotations

import unicodedata

#: the direction controls and the byte-order mark: never kept in what people type (a
#: right-to-left override turns the rest of the page's line around)
BIDI_CONTROLS = frozenset(
    "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
#: letters and symbols that draw nothing
BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def shows_something(text: str) -> bool:
    """Does `text` hold a character that draws something?

    >>> shows_something("Bien joué !")
    True
    >>> shows_something("\\u200b\\u3164 \\u2800\\ufeff\\u200d")
    False
    >>> shows_something("\\u200b👍")
    True
    """
    return any(c not in BLANK_GLYPHS and unicodedata.category(c)[0] not in "CZ" for c in text)


#: alphabets whose letters look alike (Latin « a », Cyrillic « а », Greek « α », Cherokee « Ꭺ »)
LOOKALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "CHEROKEE")


def mixes_alphabets(text: str) -> bool:
    """Does a word of `text` mix letters of the Latin, Cyrillic, Greek or Cherokee
    alphabets? One that does is nearly always a disguise: « Аlice » with a Cyrillic « А »
    reads as « Alice ». Words in different alphabets side by side are fine.

    >>> mixes_alphabets("Aimée"), mixes_alphabets("Ольга"), mixes_alphabets("Olga Ольга")
    (False, False, False)
    >>> mixes_alphabets("\u0410lice"), mixes_alphabets("\u13aalice")
    (True, True)
    """
    for word in text.split():
        found = {
            script
            for c in word
            if c.isalpha()
            for script in LOOKALIKE_SCRIPTS
            if unicodedata.name(c, "").startswith(script)
        }
        if len(found) > 1:
            return True
    return False


#: Cyrillic and Greek small letters (after casefolding) drawn like a Latin one in common
#: fonts, capitals included (« Н » reads « H », « Т » reads « T »)
LATIN_TWINS = str.maketrans(
    {
        **dict(zip("авекмнорстухѕіјԁһӏԛԝү", "abekmhopctyxsijdhlqwy", strict=True)),
        **dict(zip("αβεζηικμνοτυχϲρ", "abezhikmnotyxcp", strict=True)),
    }
)


def latin_twin(text: str) -> str | None:
    """The Latin name that `text`, written all in Cyrillic or Greek look-alikes, passes
    for (casefolded); None when it is not such a disguise. « Сосо » in Cyrillic reads as
    « Coco »: mixing alphabets is refused elsewhere, this is the whole word in one.

    >>> latin_twin("\u0421\u043e\u0441\u043e"), latin_twin("\u0391\u039d\u0391")
    ('coco', 'ana')
    >>> latin_twin("\u03f9\u03bf\u03f9\u03bf")  # lunate sigmas and omicrons
    'coco'

    >>> latin_twin("Coco"), latin_twin("\u041e\u043b\u044c\u0433\u0430")
    (None, None)
    """
    # mapped before NFKC, which would turn the lunate sigma « ϲ » (a « c ») into « σ »
    twin = unicodedata.normalize("NFKC", text.casefold().translate(LATIN_TWINS)).casefold()
    if twin == unicodedata.normalize("NFKC", text).casefold() or not twin.isascii():
        return None
    return twin
