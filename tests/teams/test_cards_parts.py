"""Teams rendering of a multi-part answer: one numbered section per part in the card (each with its own
quotes and citations or its decline, every passage once), the numbered lines in the text fallback, and
the card size cap keeping every part's heading."""

from __future__ import annotations

import json

from bot.teams import cards
from tests.answer.multipart_sample import Q_NO_NPWP, Q_OPEN, Q_RATE, QUOTE_NPWP, QUOTE_RATE, multipart_answer


def _texts(card: dict) -> list[str]:
    return cards.texts_of(card)


def test_the_card_has_a_section_per_part_with_its_own_quotes() -> None:
    card = cards.answer_card(multipart_answer(open_part=True).to_json(), reference="REF1")
    shown = _texts(card)
    heads = [i for i, x in enumerate(shown) if x.startswith(("1. ", "2. ", "3. "))]
    assert [shown[i] for i in heads] == [f"1. {Q_RATE}", f"2. {Q_NO_NPWP}", f"3. {Q_OPEN}"]
    one, two, three = heads
    assert "tarifnya 2% dari jumlah bruto [1]" in shown[one + 1]
    assert any(QUOTE_RATE[:40] in x for x in shown[one:two])
    assert "tarifnya lebih tinggi 100% [2]" in shown[two + 1]
    assert any(QUOTE_NPWP[:40] in x for x in shown[two:three])
    assert any("[1]: kutipan di atas" in x for x in shown[two:three])
    assert sum(QUOTE_RATE[:40] in x for x in shown) == 1
    assert "Saya tidak menemukan sumber" in shown[three + 1]
    assert cards.ASK_TAX_TEAM in cards.verbs_of(card)


def test_the_text_fallback_numbers_the_parts_and_cites_every_claim() -> None:
    activity = cards.answer_activity(multipart_answer(open_part=True).to_json(), reference="REF1")
    text = activity["text"]
    assert text.index(f"1. {Q_RATE}") < text.index(f"2. {Q_NO_NPWP}") < text.index(f"3. {Q_OPEN}")
    assert "[1] UU 36/2008 Pasal 23 ayat (1) huruf c" in text and "[2] UU 36/2008 Pasal 23 ayat (1a)" in text
    assert [c["position"] for c in activity["entities"][0]["citation"]] == [1, 2]


def test_a_card_over_the_size_cap_drops_claims_but_keeps_every_part() -> None:
    card = cards.answer_card(multipart_answer(open_part=True, extra_claims=30).to_json(), reference="REF1")
    size = len(json.dumps(card, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    assert size <= cards.MAX_CARD_BYTES
    shown = _texts(card)
    assert [x for x in shown if x.startswith(("1. ", "2. ", "3. "))] == [
        f"1. {Q_RATE}",
        f"2. {Q_NO_NPWP}",
        f"3. {Q_OPEN}",
    ]
    assert any("tidak ditampilkan" in x or "omitted" in x.lower() for x in shown)
