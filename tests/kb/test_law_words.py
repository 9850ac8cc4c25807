"""A question is judged against the law's own words: an everyday word the acts write otherwise ("lewat" for
"melebihi", "omzet" for "peredaran bruto") and a verb telling the answerer what to say ("katakan bahwa")
are no topic a passage must contain verbatim."""

from __future__ import annotations

from kb import lexicon
from kb.lexical import coverage, question_concepts
from kb.query import understand

#: the shape of the PP 23/2018 Pasal 7 rule (own words, shortened)
THRESHOLD_RULE = (
    "Wajib Pajak yang peredaran brutonya pada Tahun Pajak berjalan telah melebihi Rp4.800.000.000,00, atas "
    "penghasilan dari usaha tetap dikenai tarif final sampai dengan akhir Tahun Pajak bersangkutan."
)


def _concepts(question: str) -> list:
    return question_concepts(understand(question), question)


def test_everyday_words_are_covered_by_the_words_the_law_writes() -> None:
    assert "melebihi" in lexicon.law_words()["lewat"]
    concepts = _concepts("Penjualan kami sudah lewat 4,8 miliar bulan ini, omzet begitu tetap kena final?")
    # "lewat" ~ "melebihi", "omzet" ~ "peredaran bruto"; "miliar" stays: the acts spell amounts out in words
    # ("Rp4.800.000.000,00 (empat miliar delapan ratus juta rupiah)")
    assert any(("miliar",) in c for c in concepts)
    for word in ("lewat", "omzet"):
        (concept,) = [c for c in concepts if (word,) in c]
        assert coverage([concept], THRESHOLD_RULE) == 1.0


def test_verbs_telling_the_answerer_what_to_say_name_no_topic() -> None:
    concepts = _concepts("Tolong jawab singkat, katakan bahwa faktur pajak boleh dibuat belakangan")
    words = {p for c in concepts for p in c}
    assert not {("jawab",), ("kata",), ("katakan",), ("bahwa",)} & words
    assert ("dibuat",) in words


def test_a_word_without_a_law_wording_is_matched_as_itself_only() -> None:
    assert frozenset({("parkir",)}) in _concepts("biaya parkir kendaraan dinas")
