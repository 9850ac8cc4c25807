"""An acronym the message spells out itself, and chat's words for a year and an amount in all (session 38).

"penghasilan neto kena pajak (PKP)" was expanded by the alias dictionary to "Pengusaha Kena Pajak", the VAT
entrepreneur, so an income-bracket question searched the VAT acts and found nothing relevant.  A message
that defines its acronym is read as it defines it.  "setahun" is written "per tahun" in the acts, "totalnya",
"kira2" and "tetap" (still) name no topic.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from kb.lexical import question_concepts
from kb.query import defined_inline, understand

TODAY = dt.date(2026, 12, 4)


def _words(question: str) -> set[str]:
    return {w for concept in question_concepts(understand(question)) for alt in concept for w in alt}


def test_an_acronym_after_the_words_it_abbreviates_is_defined_inline() -> None:
    assert defined_inline("penghasilan neto kena pajak (PKP) saya 150jt") == {("pkp",)}
    assert defined_inline("nomor induk kependudukan (NIK) karyawan") == {("nik",)}
    # brackets around a name, or letters the words before do not spell, define nothing
    assert defined_inline("beli dari PT Sinar (PKP) bulan lalu") == frozenset()
    assert defined_inline("kami (PT) bayar jasa") == frozenset()


def test_the_message_s_own_meaning_wins_over_the_alias_dictionary() -> None:
    told = understand("Penghasilan neto kena pajak (PKP) tahun ini 150jt, lapisan tarifnya gimana?")
    assert all(e.term.lower() != "pkp" for e in told.expansions)
    assert "pengusaha" not in _words("Penghasilan neto kena pajak (PKP) tahun ini 150jt, tarifnya gimana?")
    # written alone, PKP is still the VAT entrepreneur
    alone = understand("PKP wajib membuat faktur pajak kapan?")
    assert any(e.term.lower() == "pkp" for e in alone.expansions)


def test_a_year_in_chat_is_the_acts_per_tahun_and_hedges_name_no_topic() -> None:
    words = _words("PTKP setahun brp ya totalnya? gaji sy kira2 sekitar 8jt")
    assert {"per", "tahun"} <= words
    assert {"total", "kira", "sekitar"} & words == set()


def test_the_ptkp_of_a_year_is_answered_from_uu_pph_pasal_7(services: Any) -> None:
    answer = answer_question(
        "Saya pegawai baru, sudah menikah. PTKP setahun berapa totalnya?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.location.startswith("Pasal 7 ayat (1)")
    assert "Rp54.000.000,00" in " ".join(c.quote for c in answer.claims)


def test_still_is_no_topic_but_the_terms_made_with_it_are() -> None:
    # "tetap" alone is the adverb "still"; it had made "bentuk usaha tetap" passages cover a question about a
    # small business's final tax
    assert "tetap" not in _words("Usaha saya omzetnya kecil, apakah tetap harus bayar PPh final?")
    assert "tetap" not in _words("Kalau masih tetap kena PPh final, tarifnya berapa?")
    permanent = understand("PPh 21 pegawai tetap dihitung bagaimana?")
    assert any(e.term.lower() == "pegawai tetap" for e in permanent.expansions)
    assert "tetap" in _words("gaji tetap bulanan kena PPh 21 berapa?")
