"""A contract is a "surat perjanjian" of UU Bea Meterai; a stamp-duty question is no rent-rate question.

"kontrak kerja karyawan perlu bea meterai?" (a probe of our own, session 53) matched only the exemption of
salary receipts "yang berkaitan dengan hubungan kerja" (UU Bea Meterai Pasal 7 huruf c) and was told no
duty is due; lexicon ``search_words`` reads "kontrak" as the act's "surat perjanjian" (Pasal 3 ayat (2)
huruf a).  A question asking the stamp duty's tariff for a lease was declined as "no source states the rate
for renting land and buildings"; the question's tax types (the reviewed alias ``bea-meterai``) name stamp
duty.
"""

from __future__ import annotations

from typing import Any

from tests.answer.chunk_sample import anonymous_answer


def test_an_employment_contract_is_a_charged_agreement(services: Any) -> None:
    answer = anonymous_answer(services, "kontrak kerja karyawan outsourcing perlu bea meterai?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    # the charged documents (Pasal 3) or when the duty on an agreement falls due (Pasal 8 ayat (1))
    assert lead.source.doc_id == "uu-10-2020" and lead.source.location.startswith(("Pasal 3", "Pasal 8"))
    assert "surat perjanjian" in lead.quote
    assert "tidak dikenakan" not in lead.quote


def test_a_lease_named_with_stamp_duty_is_not_declined_as_a_rent_rate(services: Any) -> None:
    answer = anonymous_answer(services, "tarif bea meterai untuk kontrak sewa ruko berapa?")
    assert answer.status == "answered"
    assert "Rp10.000,00" in answer.claims[0].quote
    assert "sewa tanah dan/atau bangunan" not in answer.answer
    assert all(c.source.doc_id == "uu-10-2020" for c in answer.claims[:1])
