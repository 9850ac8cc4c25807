"""English words of everyday tax questions are read in the acts' Indonesian.

An English word the lexicon's ``en_id`` table does not hold is a topic only an English passage can cover, so
"Are employee bonuses subject to income tax?" lost "bonuses" against every regulation, and the verbs of being
taxed ("taxed", "charged", "subject to") were topics no passage could ever cover.  Since session 51 the
content words have their Indonesian (``en_id``) and the verbs are generic, like the acts' "dikenakan" /
"dikenai".  Questions are our own.
"""

from __future__ import annotations

from kb import lexicon
from kb.lexical import EN_ONLY, coverage, question_concepts
from kb.query import understand

#: the shape of PMK 168/2023 Pasal 5 ayat (1) (own words, shortened)
BONUS_RULE = "Penghasilan pegawai yang dipotong Pajak Penghasilan meliputi bonus dan tantiem."


def _concepts(question: str) -> list[frozenset[tuple[str, ...]]]:
    return question_concepts(understand(question), question)


def test_the_verbs_of_being_taxed_are_generic() -> None:
    generic = lexicon.generic_words()
    assert {"taxed", "charged", "subject", "become"} <= generic
    concepts = _concepts("Is interest on a bank savings account taxed?")
    assert not [c for c in concepts if EN_ONLY in c]


def test_bonuses_are_the_acts_bonus_and_tantiem() -> None:
    assert lexicon.en_id()["bonuses"] == ("bonus", "tantiem")
    concepts = _concepts("Are employee bonuses subject to income tax?")
    assert not [c for c in concepts if EN_ONLY in c]
    assert coverage(concepts, BONUS_RULE, "id") == 1.0


def test_a_stock_exchange_is_the_acts_bursa() -> None:
    concepts = _concepts("Is income from selling shares on the stock exchange taxed?")
    assert not [c for c in concepts if EN_ONLY in c]
    assert coverage(concepts, "penghasilan dari penjualan saham di bursa efek", "id") == 1.0


def test_a_tax_id_number_is_the_npwp() -> None:
    concepts = _concepts("Who has to register for a tax ID number?")
    assert [c for c in concepts if ("npwp",) in c]
