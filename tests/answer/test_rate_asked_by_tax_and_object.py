"""A rate asked by naming the tax, what it is charged on, and a closing "berapa".

"PPh 26 atas royalti ke luar negeri berapa?" (a probe of our own, session 52) was read as asking an amount,
and UU PPh's elucidation of Pasal 26 answered it with its worked example: "jumlahnya Rp100.000.000,00".  The
question asks the rate (lexicon ``question_kinds.rate``, ``tax_object_berapa``); the example opens with a
"misalnya" after a comma that brings in a party of its own (``passage_cues.example_opener``), so its
figures are the case's, never the answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.extractive import asked_fact, example_narrative
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    "question",
    [
        "PPh 26 atas royalti ke luar negeri berapa?",
        "ppn impor barang berapa ya?",
        "PPh 22 impor dipungut berapa?",
    ],
)
def test_tax_object_then_berapa_asks_the_rate(question: str) -> None:
    assert asked_fact(question) == "rate"


@pytest.mark.parametrize(
    "question",
    [
        # a figure of the case between the tax and "berapa": the amount is asked
        "PPh 21 karyawan PTKP nya berapa?",
        "pph 21 gaji 10 juta berapa?",
        # a return's lateness: the fine is asked
        "SPT masa PPN bulan Maret terlambat dilaporkan, sanksinya berapa?",
        "PPN telat disetor kena berapa?",
        # a period
        "pph 23 jasa konsultan dipotong berapa kali?",
    ],
)
def test_other_figures_after_a_tax_are_not_its_rate(question: str) -> None:
    assert asked_fact(question) != "rate"


#: UU PPh's elucidation of Pasal 26, in its shape: the rule, then a worked case opened mid-sentence
ELUCIDATION = (
    "6. keuntungan karena pembebasan utang. Sesuai dengan ketentuan ini, misalnya suatu badan subjek pajak "
    "dalam negeri membayarkan royalti sebesar Rp100.000.000,00 (seratus juta rupiah) kepada Wajib Pajak luar "
    "negeri, subjek pajak dalam negeri tersebut berkewajiban untuk memotong Pajak Penghasilan sebesar 20% "
    "(dua puluh persen) dari Rp100.000.000,00 (seratus juta rupiah)."
)


def test_a_case_brought_in_by_misalnya_after_a_comma_is_an_example() -> None:
    quote = "misalnya suatu badan subjek pajak dalam negeri membayarkan royalti sebesar Rp100.000.000,00"
    assert example_narrative(ELUCIDATION, quote)
    # "misalnya" listing kinds inside a rule's sentence is no example
    rule = "Penghasilan lain, misalnya bunga dan royalti sebesar Rp100.000.000,00 dikenai pajak."
    assert not example_narrative(rule, "misalnya bunga dan royalti sebesar Rp100.000.000,00 dikenai pajak.")


def test_the_royalty_rate_abroad_is_answered_from_pasal_26(services: Any) -> None:
    answer = anonymous_answer(services, "PPh 26 atas royalti ke luar negeri berapa?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 26 ayat (1)")
    assert "20%" in lead.quote
    assert "Rp100.000.000" not in answer.answer
