"""A question that names an act is answered from that act's family (session 37).

A question on the letter a revoked PP had issued was answered from a PMK on exemption letters for gold
imports, which shares only "surat keterangan" and "tetap berlaku" with it: an answer to another question,
shown as an answer.  Acts and passages are made up for the test.
"""

from __future__ import annotations

from bot.answer.model import ShownClaim, SourceRef
from bot.answer.pipeline import named_family, outside_named_acts
from kb.model import DocumentMeta

OLD_PP = DocumentMeta(
    id="pp-1-2030", title="PPh Final UMKM", number="PP 1/2030", type="PP", revoked_by=("pp-2-2032",)
)
NEW_PP = DocumentMeta(
    id="pp-2-2032", title="Penyesuaian PPh", number="PP 2/2032", type="PP", revokes=("pp-1-2030",)
)
ACT = DocumentMeta(id="uu-3-2030", title="Pajak Penghasilan", number="UU 3/2030", type="UU")
AMENDMENT = DocumentMeta(
    id="uu-4-2031", title="Perubahan UU PPh", number="UU 4/2031", type="UU", amends=("uu-3-2030",)
)
LATER = DocumentMeta(
    id="uu-5-2033", title="Cipta Pajak", number="UU 5/2033", type="UU", amends=("uu-3-2030",)
)
OTHER_PMK = DocumentMeta(id="pmk-6-2033", title="Impor Emas", number="PMK 6/2033", type="PMK")
DOCS = {d.id: d for d in (OLD_PP, NEW_PP, ACT, AMENDMENT, LATER, OTHER_PMK)}


def _lead(doc: DocumentMeta, quote: str) -> ShownClaim:
    source = SourceRef(
        doc.id, doc.number, doc.title, "Pasal 1", None, None, "in_force", None, False, f"{doc.id}#p1"
    )
    return ShownClaim(quote, quote, "regulation", False, "entailed", source)


def test_the_family_of_a_named_act_is_its_successor_and_every_act_amending_the_same_law() -> None:
    assert named_family([OLD_PP], DOCS) == {"pp-1-2030", "pp-2-2032"}
    # UU 4/2031 named: the law it amends and the later act restating the same law
    assert named_family([AMENDMENT], DOCS) == {"uu-3-2030", "uu-4-2031", "uu-5-2033"}


def test_a_lead_from_an_act_the_question_did_not_name_is_outside() -> None:
    letter = "a. surat keterangan bebas ... tetap berlaku sampai dengan berakhirnya surat keterangan bebas"
    assert outside_named_acts(_lead(OTHER_PMK, letter), [OLD_PP], DOCS)
    # the successor, or a passage that cites the named act, answers it
    assert not outside_named_acts(_lead(NEW_PP, "Tarif ... sebesar 0,5%"), [OLD_PP], DOCS)
    cites = "sebagaimana dimaksud dalam Peraturan Pemerintah Nomor 1 Tahun 2030 tetap berlaku"
    assert not outside_named_acts(_lead(OTHER_PMK, cites), [OLD_PP], DOCS)
    assert not outside_named_acts(_lead(OTHER_PMK, "merujuk PP 1/2030"), [OLD_PP], DOCS)
    # a question that names no act is not judged
    assert not outside_named_acts(_lead(OTHER_PMK, letter), [], DOCS)
