"""Whitespace normalisation shared by the quote gate and the judges.

Only whitespace is normalised: PDF extraction and chat clients disagree about line breaks, tabs and
non-breaking spaces, but any other difference (case, punctuation, a changed letter) may change the
meaning of a legal sentence, so it must make an exact-quote check fail.
"""

from __future__ import annotations

import re

# ``\s`` on str patterns covers Unicode whitespace: NBSP (U+00A0), narrow NBSP (U+202F), U+2000-U+200A,
# ideographic space, line/paragraph separators.  Zero-width characters are not whitespace and are kept.
_WS = re.compile(r"\s+")


def normalize_ws(s: str) -> str:
    """Collapse every run of whitespace (incl. NBSP and line breaks) to one space and strip the ends.

    Args:
        s: Any text.

    Returns:
        The text with whitespace normalised; nothing else changed.
    """
    return _WS.sub(" ", s).strip()
