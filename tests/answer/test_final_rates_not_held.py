"""Interest on deposits and share sales on the stock exchange: final taxes whose rates the corpus lacks.

UU PPh Pasal 4 ayat (2) makes both final taxes and leaves their rates to regulations of their own (PP
131/2000, PP 41/1994) that the knowledge base does not hold. Probes of our own (session 52) asking those
rates were told the 30% of the 2022 voluntary-disclosure programme, PPh 23's 15% on interest, or PPh 26's
20% on the sale of a conduit company's shares. They are declined with why (pipeline step 7b, question
objects ``deposit_interest`` and ``stock_exchange_sale``); whether such income is taxed at all is still
answered from Pasal 4 ayat (2).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.answer.extractive import unstated_object_rate
from tests.answer.chunk_sample import anonymous_answer

#: the shape of UU PPh Pasal 23 ayat (1) huruf a (own words, shortened): interest among other objects
PPH23_INTEREST = "a. sebesar 15% dari jumlah bruto atas: 1. dividen; 2. bunga; 3. royalti."
#: the shape of UU HPP Pasal 11 ayat (2): a final rate on the income of a programme, naming no deposit
PROGRAMME = "b. terhadap penghasilan sebagaimana dimaksud dalam huruf a dikenai Pajak Penghasilan final 30%."


@pytest.mark.parametrize(
    ("question", "object_name"),
    [
        ("PPh final atas bunga deposito tarifnya?", "deposit_interest"),
        ("bunga tabungan dipotong pajak berapa persen?", "deposit_interest"),
        ("What is the tax rate on bank deposit interest?", "deposit_interest"),
        ("tarif pph final penjualan saham di bursa berapa?", "stock_exchange_sale"),
    ],
)
def test_the_rate_of_an_unheld_final_tax_is_unstated(question: str, object_name: str) -> None:
    assert unstated_object_rate(question, PPH23_INTEREST) == object_name
    assert unstated_object_rate(question, PROGRAMME) == object_name


def test_a_passage_stating_the_deposit_rate_answers() -> None:
    stated = "Atas bunga deposito dan tabungan dikenai Pajak Penghasilan final sebesar 20% dari jumlah bruto."
    assert unstated_object_rate("PPh final atas bunga deposito tarifnya?", stated) is None


def test_a_deposit_rate_question_is_declined_with_why(services: Any) -> None:
    answer = anonymous_answer(services, "bunga tabungan dipotong pajak berapa persen?")
    assert answer.status == "abstained"
    assert "bunga deposito dan tabungan" in answer.answer
    assert "15%" not in answer.answer and "30%" not in answer.answer


def test_whether_deposit_interest_is_taxed_is_answered(services: Any) -> None:
    answer = anonymous_answer(services, "bunga deposito kena pajak ga?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 4 ayat (2)")
    assert "bunga deposito" in lead.quote


def test_a_rate_no_passage_comes_near_is_declined_with_whose_rate(services: Any) -> None:
    # when nothing relevant is found at all (no other object's rate to hold back), the decline still names
    # the rate that is missing, without claiming passages of other objects were found (session 55)
    answer = anonymous_answer(services, "Tarif PPh final sewa gudang berapa persen?")
    assert answer.status == "abstained" and not answer.claims
    assert "tarif untuk sewa tanah dan/atau bangunan" in answer.answer
    assert "objek lain" not in answer.answer
