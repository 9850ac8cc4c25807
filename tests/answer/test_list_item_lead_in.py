"""A list item kept in its own passage is judged with the sentence that opens its list (session 40).

UU PPN Pasal 4A ayat (3) lists the services not subject to VAT, one huruf per passage: "m. jasa penyediaan
tempat parkir ...".  The item itself has no rule word ("tidak dikenai" is in the lead-in "(3) Jenis jasa yang
tidak dikenai Pajak Pertambahan Nilai ... sebagai berikut:"), so the composer's rule cue (lead weight 0.3)
passed it over for any passage that says "dikenai" or "terutang" about something else.  Retrieval already
scored items with their lead-in; now every hit carries it (``Hit.lead_in``) and the composer's cue reads it.
Passages are hand-made or the corpus' own; the question is ours.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import lead_features
from bot.answer.protocol import ComposeRequest
from bot.wiring import search_filter
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

TODAY = dt.date(2026, 12, 4)
ACT = DocumentMeta(id="uu-x", title="Undang-Undang contoh", number="UU 1/2099", type="UU")
ITEM = sample_chunk(
    "uu-x",
    "pasal-4A/ayat-3/huruf-m",
    "m. jasa penyediaan tempat parkir;",
    location="Pasal 4A ayat (3) huruf m",
    seq=1,
    kind="huruf",
    parent_key="pasal-4A/ayat-3",
)
LEAD_IN = "(3) Jenis jasa yang tidak dikenai Pajak Pertambahan Nilai yakni jasa tertentu sebagai berikut:"


def test_the_rule_cue_of_an_item_is_read_in_its_lead_in() -> None:
    question = "Jasa parkir gedung kena PPN atau tidak?"
    alone = Hit(ITEM, ACT, 1.0, ("bm25",))
    listed = Hit(ITEM, ACT, 1.0, ("bm25",), LEAD_IN)
    request = ComposeRequest(question, "id", TODAY, understand(question), (listed,))
    assert lead_features(0, alone, 0.6, request)["cue"] == 0.0
    assert lead_features(0, listed, 0.6, request)["cue"] == 1.0


def test_retrieval_hands_an_item_its_lead_in(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), TODAY)
    found = services.retriever.search("jasa penyediaan tempat parkir PPN", flt, top_k=10).results
    item = next(h for h in found if h.chunk.id == "uu-7-2021#pasal-4/angka-1/pasal-4A/ayat-3/huruf-n")
    assert item.lead_in.startswith("(3) Jenis jasa yang tidak dikenai Pajak Pertambahan Nilai")


def test_an_item_leads_under_the_sentence_that_opens_its_list(services: Any) -> None:
    """The answer quotes the lead-in beside the item and its line reads them together: "jasa perhotelan"
    alone does not say that the service is exempt from VAT."""
    from bot.answer.pipeline import answer_question

    answer = answer_question(
        "Kami sewa hotel untuk rapat tahunan, jasa perhotelan itu kena PPN atau tidak?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    item, opener = answer.claims[0], answer.claims[1]
    assert item.source.chunk_id == "uu-7-2021#pasal-4/angka-1/pasal-4A/ayat-3/huruf-l"
    assert opener.role == "context"
    assert opener.source.chunk_id in (
        "uu-7-2021#pasal-4/angka-1/pasal-4A/ayat-3",
        "uu-7-2021#pasal-4/angka-1/pasal-4A/ayat-3/pembuka",
    )
    assert opener.quote.startswith("Jenis jasa yang tidak dikenai Pajak Pertambahan Nilai")
    assert answer.answer.startswith(
        "Menurut UU 7/2021: Jenis jasa yang tidak dikenai Pajak Pertambahan Nilai yakni jasa tertentu dalam"
        " kelompok jasa sebagai berikut: jasa perhotelan"
    )
    assert "[1][2]." in answer.answer


def test_an_elucidations_cukup_jelas_is_no_opener(services: Any) -> None:
    # PP 9/2021's elucidation of PP 1/2012 Pasal 19 opens "Pasal 19 Cukup jelas." before its Ayat; that was
    # quoted as the lead's opener and read into the line ("Menurut PP 9/2021: Cukup jelas.: Atas
    # keterlambatan ...", session 55, a probe of our own).  PP 44/2022 revoked that Pasal of PP 9/2021 on 2
    # December 2022 (session 64: it no longer answers later dates), so the question is asked for mid-2022
    from bot.answer.pipeline import answer_question

    answer = answer_question(
        "Faktur pajak yang terlambat dibuat kena sanksi apa?",
        services.cli_principal(None),
        services,
        as_of=dt.date(2022, 6, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].quote.startswith("Atas keterlambatan pembuatan Faktur Pajak dikenai sanksi")
    assert all(c.quote.strip() != "Cukup jelas." for c in answer.claims)
    assert "Cukup jelas" not in answer.answer
