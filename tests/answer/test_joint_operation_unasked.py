"""A question that names no joint operation is not answered with a joint operation's rule.

Session 74, probes of our own: PMK 79/2024's rules for a joint operation (kerja sama operasi, KSO) and its
members, restated by PMK 11/2025 Pasal 11 ("Atas penyerahan ... KSO yang merupakan Pengusaha Kena Pajak wajib
membuat Faktur Pajak"; "Saat terutangnya Pajak Pertambahan Nilai ..."), share every word of a general question
on when PPN is due or when a tax invoice is made, and led "When is VAT due on the sale of goods?".  A lead
feature (``subject_unasked``, weighed as ``only_unasked_regime``) marks a rule for a joint operation when the
question names none (lexicon ``passage_cues.joint_operation`` / ``question_kinds.joint_operation``).
"""

from __future__ import annotations

from typing import Any

from bot.answer.extractive import lead_features
from kb.model import DocumentMeta, Hit
from tests.answer.chunk_sample import anonymous_answer, compose_request, sample_chunk

DOC = DocumentMeta(id="pmk-x", number="PMK 1/2099", title="PPN tertentu", type="PMK")
KSO_RULE = sample_chunk(
    "pmk-x",
    "pasal-6/ayat-2",
    "(2) Saat terutangnya Pajak Pertambahan Nilai atas penyerahan oleh KSO kepada Pelanggan terjadi pada "
    "saat penyerahan.",
    location="Pasal 6 ayat (2)",
    seq=1,
)


def _unasked(question: str) -> float:
    hit = Hit(KSO_RULE, DOC, 1.0)
    return lead_features(0, hit, 1.0, compose_request(question, [hit]))["subject_unasked"]


def test_a_joint_operations_rule_is_marked_for_a_question_naming_none() -> None:
    assert _unasked("Kapan PPN terutang atas penyerahan barang?") == 1.0
    assert _unasked("When is VAT due on the sale of goods?") == 1.0
    assert _unasked("Kapan PPN terutang atas penyerahan oleh KSO?") == 0.0
    assert _unasked("When is VAT due for a joint operation's deliveries?") == 0.0


def test_when_vat_is_due_is_not_answered_with_a_joint_operations_rule(services: Any) -> None:
    answer = anonymous_answer(services, "When is VAT due on the sale of goods?")
    assert answer.claims, answer.status
    assert "KSO" not in answer.claims[0].quote
    assert not answer.claims[0].source.chunk_id.startswith("pmk-11-2025#pasal-11/")
