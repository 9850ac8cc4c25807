"""A number in a question's phrase is mentioned only beside the word it counts.

"PPh 23" is mentioned by "Pajak Penghasilan Pasal 23", not by a text that has "Pajak Penghasilan", "Pasal" and
a "23" apart: a definition numbered "23." in an act on "Pajak Penghasilan Pasal 21" led the answer to "SKB PPh
23 itu apa?" (a probe of our own) with the definition of a police officer (session 51).
"""

from __future__ import annotations

from kb.lexical import coverage, question_concepts
from kb.query import understand

QUESTION = "SKB PPh 23 itu apa?"
#: the shape of a numbered definition in a PPh 21 act (own words), with the act's title before it
ELSEWHERE = (
    "Pemotongan Pajak atas Penghasilan sehubungan dengan Pekerjaan Pasal 21. "
    "23. Anggota Kepolisian adalah anggota kepolisian negara."
)
#: the shape of a rule on the withholding named (own words)
BESIDE = "Pemotongan Pajak Penghasilan Pasal 23 tidak dilakukan atas penghasilan yang dibebaskan."


def _tax_concept() -> list[frozenset[tuple[str, ...]]]:
    concepts = question_concepts(understand(QUESTION), QUESTION)
    return [c for c in concepts if ("pph", "23") in c]


def test_the_number_apart_from_its_word_mentions_nothing() -> None:
    assert coverage(_tax_concept(), ELSEWHERE, "id") == 0.0


def test_the_number_beside_its_word_is_mentioned() -> None:
    assert coverage(_tax_concept(), BESIDE, "id") == 1.0
    assert coverage(_tax_concept(), "atas penghasilan ini dipotong PPh 23 sebesar 2%", "id") == 1.0
