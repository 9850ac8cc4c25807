"""Benefits in kind, and delegation clauses that only name them.

Before session 44 "fasilitas karyawan" was two concepts of a question (an alias and a search word expanding
the same words), "natura" did not reach the acts' "kenikmatan", and a benefits question was led by UU PPh
Pasal 32C huruf a: an item of the delegation list "Ketentuan lebih lanjut mengenai ... diatur dengan atau
berdasarkan Peraturan Pemerintah", which names natura and states no rule about it.  The item is split in
parts, and a part had lost the list's lead-in, so nothing told it was a delegation.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt

import pytest

from bot.answer.extractive import delegates
from bot.answer.pipeline import answer_question
from kb.lexical import question_concepts
from kb.model import DocumentMeta, Hit
from kb.query import understand
from tests.answer.chunk_sample import sample_chunk

HOUSE = (
    "Perusahaan memberi fasilitas karyawan berupa rumah dinas. Apakah fasilitas itu penghasilan bagi "
    "karyawan yang menerimanya?"
)
ACT = DocumentMeta(id="uu-9-2030", title="Pajak Penghasilan", number="UU 9/2030", type="UU")
DELEGATION_OPENING = (
    "Pasal 40\nKetentuan lebih lanjut mengenai hal berikut diatur dengan Peraturan Pemerintah:"
)


def _natura_concepts(services, question: str) -> list[frozenset[tuple[str, ...]]]:
    concepts = question_concepts(understand(question, aliases=services.aliases), question)
    return [c for c in concepts if ("natura",) in c]


def test_an_employee_facility_is_one_natura_concept(services) -> None:
    """The alias and the search word both expand "fasilitas karyawan": one written term is one concept (it
    counted twice in a passage's coverage before), and it reads "kenikmatan" as the act writes it."""
    (concept,) = _natura_concepts(services, HOUSE)
    assert {("fasilita", "karyaw"), ("kenikmat",), ("natura", "kenikmat")} <= concept
    # the act's "kenikmatan" covers a question writing "natura"
    (concept,) = _natura_concepts(services, "Makan siang untuk semua karyawan termasuk natura yang kena PPh?")
    assert ("kenikmat",) in concept
    # "fasilitas" alone is no benefit: a tax facility is one too
    assert _natura_concepts(services, "Apakah ada fasilitas PPN untuk alat kesehatan?") == []


def test_a_benefits_question_is_not_led_by_a_delegation_clause(services) -> None:
    answer = answer_question(HOUSE, services.cli_principal(None), services, as_of=dt.date(2023, 6, 1))
    assert answer.status == "answered" and answer.claims
    lead = answer.claims[0]
    assert "Pasal 32C" not in lead.source.location
    # a rule on natura: PP 55/2022's, or since session 60 (its act's tax named for the candidates) UU PPh's
    # own exclusion of natura, Pasal 4 ayat (3) huruf d as UU HPP worded it
    assert lead.source.doc_id in ("pp-55-2022", "uu-7-2021")
    assert "natura" in f"{lead.text} {lead.quote}".lower()


def _item(key: str, text: str, parent_key: str) -> Hit:
    chunk = sample_chunk(
        "uu-9-2030", key, text, kind="huruf", location="Pasal 40 huruf a", seq=3, parent_key=parent_key
    )
    return Hit(chunk, ACT, 1.0, ("bm25",), lead_in=DELEGATION_OPENING)


@pytest.mark.parametrize(
    ("key", "parent_key", "lead_in"),
    [
        (
            "pasal-40/huruf-a/part-2",
            "pasal-40/huruf-a",
            "pasal-40/pembuka",
        ),  # a part of a list item: its list
        ("pasal-40/huruf-a", "pasal-40", "pasal-40/pembuka"),  # the item itself
        (
            "pasal-41/ayat-1/part-2",
            "pasal-41/ayat-1",
            "pasal-41/ayat-1/pembuka",
        ),  # an ayat's part: the ayat's
        ("pasal-42/pembuka/part-3", "pasal-42/pembuka", "pasal-42/pembuka/pembuka"),  # never its own opening
    ],
)
def test_a_part_of_a_long_list_item_takes_the_lists_lead_in(key: str, parent_key: str, lead_in: str) -> None:
    passage = sample_chunk("uu-9-2030", key, "...", location="Pasal 40", seq=4, parent_key=parent_key)
    assert passage.lead_in_id == f"uu-9-2030#{lead_in}"


def test_a_delegation_item_is_marked_unless_the_question_asks_where_it_is_regulated() -> None:
    hit = _item(
        "pasal-40/huruf-a/part-1", "a. natura dan/atau kenikmatan yang dikecualikan;", "pasal-40/huruf-a"
    )
    assert delegates(hit, HOUSE)
    assert not delegates(hit, "Natura yang dikecualikan diatur dalam peraturan apa?")
    rule = Hit(
        sample_chunk(
            "uu-9-2030",
            "pasal-4/ayat-1",
            "(1) Natura dan/atau kenikmatan merupakan penghasilan.",
            location="Pasal 4 ayat (1)",
            seq=1,
            parent_key="pasal-4",
        ),
        ACT,
        1.0,
        ("bm25",),
    )
    assert not delegates(rule, HOUSE)
