"""An English word an alias expands is also covered where the acts write it as a verb.

"withholding" is an alias (``pemotongan``, ``pemotongan pajak``, "withholding tax"), so the word was one
concept of those forms, and its en_id words (``potong``, ``dipotong``) were never added: UU PPh Pasal 26 ayat
(1), which writes "dipotong pajak sebesar 20%", covered no "withholding" (session 73, probes of our own about
royalties and dividends paid abroad; dev_chat DV015 is led by it now).  In an English question a one-word
alias term listed in the lexicon's en_id also takes those words (``kb.lexical.question_concepts``).
"""

from __future__ import annotations

from kb.lexical import coverage, question_concepts
from kb.query import understand

#: the shape of UU PPh Pasal 26 ayat (1) (own words, shortened)
NONRESIDENT_RULE = (
    "(1) Atas penghasilan tersebut di bawah ini yang dibayarkan kepada Wajib Pajak luar negeri "
    "dipotong pajak sebesar 20% (dua puluh persen) dari jumlah bruto: a. dividen; b. bunga; c. royalti;"
)


def _withholding(question: str) -> frozenset[tuple[str, ...]]:
    concepts = question_concepts(understand(question), question)
    (concept,) = [c for c in concepts if ("withholding",) in c]
    return concept


def test_an_english_withholding_question_is_covered_by_the_acts_dipotong() -> None:
    concept = _withholding("What is the withholding rate on royalties paid to a foreign company?")
    assert ("dipotong",) in concept and ("pemotong", "pajak") in concept
    assert coverage([concept], NONRESIDENT_RULE, "id") == 1.0


def test_an_indonesian_question_keeps_the_words_it_wrote() -> None:
    question = "Berapa tarif pemotongan PPh atas royalti ke luar negeri?"
    concepts = question_concepts(understand(question), question)
    assert not any(("withholding",) in c and ("dipotong",) in c for c in concepts)
