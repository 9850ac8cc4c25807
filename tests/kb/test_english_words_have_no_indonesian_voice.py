"""An English question's words get no Indonesian verb forms in the search.

"dividends" starts like a "di-" passive, so the search added "dividendskan" (the "-kan" chat drops),
"vidends" and "pemvidendsan" (its active and noun): three terms that match nothing and show in ``--explain``
as if they meant something (session 73, a probe of our own about dividends paid abroad).  The forms are read
only for a question in Indonesian (``kb.query.understand``, ``kb.query.fts_query``).
"""

from __future__ import annotations

from kb.query import fts_query, understand


def test_an_english_word_gets_no_indonesian_verb_forms() -> None:
    question = "What is the withholding tax rate on dividends paid to a foreign shareholder?"
    query = fts_query(understand(question))
    assert '"dividends"' in query and '"dividen"' in query
    for made_up in ("dividendskan", "vidends", "pemvidendsan"):
        assert f'"{made_up}"' not in query


def test_an_indonesian_passive_keeps_its_forms() -> None:
    query = fts_query(understand("PPh 23 sudah dibayar?"))
    assert '"dibayarkan"' in query and '"pembayaran"' in query
