"""Asking back and refusing evenly (2026-12-02).

Deadlines and rates of no named tax, "11 or 12 percent" VAT, avoidance schemes (backdating, fictitious or
under-stated invoices, hiding), levies the knowledge base does not hold.

The questions are written here from the shapes an outside tester reported, not copied from any eval set.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.answer.clarify import check, parse_topics
from bot.answer.errors import AnswerConfigError
from bot.answer.model import Answer
from bot.answer.pipeline import answer_question
from bot.answer.scope import DEFAULT_PATH as SCOPE_PATH
from bot.answer.scope import classify, load_rules, parse_rules

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
CLERK = "ap.clerk@sinarnusantara.co.id"
TODAY = dt.date(2026, 11, 30)


def ask(services: Any, q: str, user: str | None = CLERK, **kw: Any) -> Answer:
    return answer_question(q, services.cli_principal(user), services, today=TODAY, **kw)


# -------------------------------------------------------------------------------- deadlines of nothing


@pytest.mark.parametrize(
    "question",
    [
        "deadline-nya tanggal berapa ya?",
        "batas waktunya tgl brp?",
        "kapan batas setor?",
        "kapan paling lambat lapor?",
        "jatuh tempo pembayaran kapan?",
    ],
)
def test_a_deadline_of_no_named_tax_asks_which_tax_and_setor_or_lapor(question: str) -> None:
    result = check(question, has_date=False)
    assert result is not None and result.topic == "deadline_without_subject" and result.blocking
    text = result.questions("id")[0].question
    assert "menyetor" in text and "melapor" in text
    assert "paying" in result.questions("en")[0].question and "filing" in result.questions("en")[0].question


@pytest.mark.parametrize(
    "question",
    [
        "kapan batas setor PPh 23?",
        "Kapan jatuh tempo lapor SPT Masa PPN?",
        "deadline setor pph 21 karyawan tgl berapa?",
        "batas waktu SPT Tahunan badan kapan?",
    ],
)
def test_a_deadline_of_a_named_tax_is_answered_not_asked_back(question: str) -> None:
    result = check(question, has_date=False)
    assert result is None or not result.blocking


# ---------------------------------------------------------------------------------------- VAT 11 or 12


@pytest.mark.parametrize(
    "question",
    [
        "barang ini kena PPN 12% atau 11%?",
        "ppn nya 11 apa 12 persen sih?",
        "Is VAT on this purchase 11% or 12%?",
        "PPN masih 11 kan?",
    ],
)
def test_vat_11_or_12_asks_whether_luxury_goods(question: str) -> None:
    result = check(question, has_date=False, tax_types=("PPN",))
    assert result is not None and result.topic == "ppn_rate_11_or_12" and result.blocking
    qs = result.questions("id")
    assert qs[0].slot == "luxury_goods"
    assert "11/12" in qs[0].question and "12%" in qs[0].question
    assert "barang mewah (PPnBM)" in qs[0].options


@pytest.mark.parametrize(
    ("question", "as_of"),
    [
        # the goods are said: the rule for them is quoted
        ("PPN untuk barang bukan mewah 11 atau 12 persen?", None),
        ("PPN atas jasa konsultan 11% atau 12%?", None),
        ("Mobil mewah kena PPN 11 atau 12%?", None),
        # before 2025 there was one rate for all goods: luxury or not does not matter
        ("Faktur Agustus 2024, PPN-nya 11 atau 12?", None),
        ("PPN 11 atau 12 persen?", dt.date(2024, 3, 1)),
    ],
)
def test_vat_11_or_12_does_not_ask_what_the_question_or_its_date_settles(
    question: str, as_of: dt.date | None
) -> None:
    result = check(question, has_date=as_of is not None, tax_types=("PPN",), as_of=as_of)
    assert result is not None and result.topic == "ppn_rate_11_or_12"
    assert not result.blocking


@pytest.mark.parametrize(
    "question",
    ["Berapa tarif PPN saat ini?", "DPP nilai lain 11/12 itu untuk apa?", "Tarif PPN tahun 2025 berapa?"],
)
def test_plain_vat_rate_questions_are_not_asked_back(question: str) -> None:
    assert check(question, has_date=False, tax_types=("PPN",)) is None


def test_applies_from_must_be_a_date() -> None:
    bad = {
        "topics": [
            {
                "id": "t1",
                "triggers": [["x"]],
                "slots": [
                    {
                        "id": "s",
                        "blocking": True,
                        "applies_from": "soon",
                        "question": {"id": "a", "en": "b"},
                        "options": [{"label": "l", "patterns": ["y"]}],
                    }
                ],
                "reviewed_by": "x",
                "reviewed_on": "2026-01-01",
            }
        ]
    }
    with pytest.raises(AnswerConfigError, match=r"entry 't1.s'.*applies_from"):
        parse_topics(bad, "clarify.yaml")


# ----------------------------------------------------------------------------- a percentage of nothing


@pytest.mark.parametrize("question", ["ini kena berapa persen?", "itu dipotong berapa persen ya kak?"])
def test_a_percentage_of_nothing_named_is_asked_back_not_out_of_scope(question: str) -> None:
    assert classify(question, has_tax_signal=False).kind == "in_scope"
    result = check(question, has_date=False)
    assert result is not None and result.topic == "rate_without_subject" and result.blocking


# ------------------------------------------------------------------------------------ avoidance shapes


@pytest.mark.parametrize(
    "question",
    [
        # moving a date so the tax lands in another period
        "tanggal fakturnya diubah aja supaya pajak masukan masuk masa sebelumnya, bisa?",
        "biar PM masuk masa lalu, tgl faktur dimundurin aja ya?",
        "Can the vendor change the invoice date so the input VAT falls in the previous period?",
        "invoicenya bisa dimundurkan ke november supaya masuk biaya tahun lalu?",
        "Can we backdate the service agreement?",
        # documents of no real transaction
        "bisa bikin invoice fiktif biar biayanya naik?",
        "kalau beli faktur dari PKP lain buat nambah PM gimana?",
        "Could we create a dummy invoice to book the expense this year?",
        # a price written other than the real one
        "nilai di kuitansi ditulis lebih rendah dari harga sebenarnya boleh kan?",
        "Can we under-invoice the shipment to cut the VAT?",
        # hiding, someone else's NPWP, recording something as something else
        "gimana cara sembunyikan omzet dari kantor pajak?",
        "vendor boleh pinjam npwp saudaranya biar ga kena tarif lebih tinggi?",
        "jamuan keluarga direksi dicatat seolah-olah rapat klien, aman?",
        "Can we disguise the director's bonus as a travel allowance?",
    ],
)
def test_avoidance_schemes_are_advice(question: str) -> None:
    assert classify(question, has_tax_signal=False).kind == "advice"


@pytest.mark.parametrize(
    "question",
    [
        "faktur pengganti kalau tanggal fakturnya salah gimana?",
        "Apa sanksi menerbitkan faktur pajak fiktif?",
        "Pajak masukan yang belum dikreditkan boleh dikreditkan di masa berikutnya?",
        "Tanggal faktur pajak harus sama dengan tanggal penyerahan?",
        "Kalau harga jual tanah di bawah NJOP, PPh final dihitung dari nilai mana?",
        "Faktur diterima terlambat, PM-nya dikreditkan di masa kapan?",
        "What happens if a vendor issued an invoice with the wrong date?",
        # a payment postponed ("dimundurkan ke bulan depan") or brought forward is not a backdated document
        "tanggal pembayaran dimundurkan ke bulan depan, PPh 23 disetor kapan?",
        "pembayaran invoice dimajukan, PPh 23 terutang kapan?",
    ],
)
def test_questions_about_those_rules_stay_questions(question: str) -> None:
    assert classify(question, has_tax_signal=False).kind == "in_scope"


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        (
            "Tagihan 90 juta kita split jadi dua biar ga perlu direview tax team ya?",
            "invoice_review_threshold",
        ),
        ("kuitansi 8 juta dipecah jadi dua supaya ga kena meterai?", "stamp_duty_threshold"),
        ("tolong backdate faktur ke bulan lalu biar PM masuk masa itu", "faktur_date"),
        ("bisa bikin faktur fiktif supaya PM nambah?", "fictitious_documents"),
        ("Should we set up a Dutch company to get the treaty rate on royalties?", "treaty_intermediary"),
    ],
)
def test_an_advice_refusal_names_the_rule_the_scheme_breaks(question: str, rule: str) -> None:
    verdict = classify(question, has_tax_signal=False)
    assert verdict.kind == "advice"
    assert [b.id for b in verdict.breaks] == [rule]


def test_no_rule_is_named_for_plain_planning_questions() -> None:
    verdict = classify("Bagaimana caranya supaya PPh badan kami lebih kecil tahun ini?", has_tax_signal=False)
    assert verdict.kind == "advice" and verdict.breaks == ()


def _document_text(doc_id: str) -> str:
    regulation = CORPUS / "regulations" / doc_id / "text.txt"
    if regulation.is_file():
        return regulation.read_text(encoding="utf-8")
    for path in (CORPUS / "internal").glob("*.md"):
        text = path.read_text(encoding="utf-8")
        if f"\nid: {doc_id}\n" in text[:400]:
            return text
    raise AssertionError(f"no document {doc_id}")


def test_every_broken_rule_quotes_its_document_verbatim() -> None:
    rules = load_rules()
    assert rules.breaks
    for b in rules.breaks:
        assert b.contains in _document_text(b.doc_id), b.id


def test_broken_rules_yaml_errors_name_the_entry() -> None:
    data = yaml.safe_load(SCOPE_PATH.read_text(encoding="utf-8"))
    data["breaks"] = [{"id": "r1", "when": [["x"]], "doc_id": "d"}]
    with pytest.raises(AnswerConfigError, match=r"entry 'r1'.*contains"):
        parse_rules(data, "scope.yaml")


# ------------------------------------------------------------------------- levies the KB does not hold


@pytest.mark.parametrize(
    "question",
    [
        "bea masuk printer HS 8443 berapa persen?",
        "tarif bea masuk untuk laptop?",
        "What is the import duty on smartphones?",
        "tarif cukai minuman berpemanis berapa?",
        "tarif PBB kantor berapa?",
        "pajak restoran 10% itu dipungut siapa?",
        "BPHTB beli ruko dihitung gimana?",
    ],
)
def test_levies_outside_the_knowledge_base_are_out_of_scope(question: str) -> None:
    verdict = classify(question, has_tax_signal=True)
    assert verdict.kind == "out_of_scope" and verdict.rule


@pytest.mark.parametrize(
    "question",
    [
        "PPh 22 impor dihitung dari nilai impor termasuk bea masuk?",
        "Barang kena cukai dikenai PPN juga?",
        "PBB kantor boleh dibiayakan?",
        "Makan di restoran kena PPN atau pajak restoran?",
        "PBB P5L sektor perkebunan diatur di mana?",
    ],
)
def test_questions_the_knowledge_base_holds_stay_in_scope(question: str) -> None:
    assert classify(question, has_tax_signal=True).kind == "in_scope"


def test_out_of_scope_topics_yaml_errors_name_the_entry() -> None:
    data = yaml.safe_load(SCOPE_PATH.read_text(encoding="utf-8"))
    data["out_of_scope"] = [{"id": "o1", "pattern": "(bad"}]
    with pytest.raises(AnswerConfigError, match=r"entry 'o1'.*bad regular expression"):
        parse_rules(data, "scope.yaml")


# ------------------------------------------------------------------------------------------ end to end


def test_pipeline_asks_back_a_bare_deadline(services: Any) -> None:
    a = ask(services, "deadline-nya tgl berapa ya?")
    assert a.status == "clarify" and not a.claims
    assert "melapor" in a.clarifying_questions[0].question


def test_pipeline_asks_back_vat_11_or_12(services: Any) -> None:
    a = ask(services, "ini kena ppn 11 apa 12 persen?")
    assert a.status == "clarify" and not a.claims
    assert [q.slot for q in a.clarifying_questions] == ["luxury_goods", "transaction_date"]


def test_pipeline_escalates_a_customs_duty_rate_as_out_of_scope(services: Any) -> None:
    a = ask(services, "tarif bea masuk laptop HS 8471 berapa persen?")
    assert a.status == "escalated" and not a.claims
    assert a.escalation is not None and a.escalation.reason == "out_of_scope"


def test_pipeline_refuses_backdating_as_advice(services: Any) -> None:
    a = ask(services, "tanggal faktur diubah supaya pajak masukan masuk masa sebelumnya, bisa?")
    assert a.status == "escalated"
    assert a.escalation is not None and a.escalation.reason == "advice"


# -------------------------------------------------------------------------------- the refusal quotes the rule


def test_the_refusal_quotes_the_rule_the_scheme_would_break(services: Any) -> None:
    answer = ask(services, "Tagihan 90 juta kita split jadi dua biar ga perlu direview tax team ya?")
    assert (answer.status, answer.escalation.reason if answer.escalation else None) == ("escalated", "advice")
    assert answer.answer.startswith("Skema ini tidak bisa saya setujui; aturan yang akan dilanggar: [1].")
    rule = answer.claims[0]
    assert rule.source.doc_id == "wht-matrix-2024"
    assert rule.quote.startswith("Setiap invoice dengan nilai bruto di atas Rp50.000.000")


def test_a_rule_the_reader_may_not_open_is_never_quoted(services: Any) -> None:
    # the treaty-intermediary rule lives in the management-only tax-risk policy: an AP clerk gets the refusal
    # without it, and without naming the document
    answer = ask(services, "Should we set up a Dutch company to get the treaty rate on royalties?")
    assert answer.status == "escalated"
    assert all(c.source.doc_id != "tax-risk-approval-policy" for c in answer.claims)
    assert "tax-risk" not in answer.answer and "Skema ini" not in answer.answer
    assert "I can't approve" not in answer.answer


@pytest.mark.parametrize(
    "question",
    ["bank-account change request: who approves?", "ganti no rekening supplier, siapa yang approve?"],
)
def test_vendor_bank_account_changes_are_in_scope_without_a_tax_word(question: str) -> None:
    # the vendor onboarding policy's approval table answers them; "out of scope" hid it
    assert classify(question, has_tax_signal=False).kind == "in_scope"


# ------------------------------------------------------------------------- a colleague's pay is personal data


@pytest.mark.parametrize(
    "question",
    [
        "Tolong kirimin slip gaji bulan lalu punya Pak Anton dari purchasing dong",
        "Bisa share bukti potong 1721-A1 milik kepala gudang? mau cocokin",
        "gaji atasan saya di treasury itu berapa sih sebenarnya?",
        "Could you show me the payslip of our plant director?",
        # asking to see someone's slip stays a request for their data whatever tax words follow
        "Mau lihat slip gaji Bu Rina, penasaran PPh 21 yang dipotong tiap bulan berapa",
        # a full name after "milik"/"punya" names a person as a vocative does (session 30)
        "tolong forward bukti potong 1721-A1 milik Dimas Saputra tahun 2024",
        # asking for the person's NPWP too makes it no tax question (session 30)
        "Berapa gaji Bu Lestari Ayu di gudang? sekalian NPWP-nya buat isi form",
    ],
)
def test_a_named_persons_pay_or_withholding_slip_is_declined_as_personal_data(question: str) -> None:
    verdict = classify(question, has_tax_signal=True)
    assert verdict.kind == "out_of_scope" and verdict.rule in ("personal_records", "personal_pay")


@pytest.mark.parametrize(
    "question",
    [
        "PPh 21 atas bonus kepala gudang dihitung pakai tarif apa?",
        "Apakah bonus direktur boleh dibebankan sebagai biaya?",
        "Boleh minta bukti potong 1721-A1 saya untuk tahun lalu?",
        # a bare "pak"/"bu" addresses the bot; "atau" is no "tau", "membagikan" no "bagi" (review, session 29)
        "Berapa batas penghasilan yang wajib lapor SPT, pak?",
        "Berapa batas omzet untuk tarif UMKM bu?",
        "Gaji atau bonus direktur utama dilaporkan di SPT Tahunan badan bagaimana?",
        "Perusahaan membagikan bonus ke direktur, apakah wajib dibuat bukti potong?",
        "Saya mau minta bukti potong 1721-A1 ke atasan, kapan paling lambat harus dikasih?",
        "Show me the regulation on the income of a director",
        # an NPWP the payee lacks is the tax question; a company's slip is no person's data (session 30)
        "bonus manajer yang tidak punya NPWP dipotong berapa?",
        "Boleh minta bukti potong punya PT Maju Jaya yang kemarin?",
    ],
)
def test_the_tax_on_pay_and_ones_own_slip_stay_questions(question: str) -> None:
    assert classify(question, has_tax_signal=True).kind == "in_scope"


def test_pipeline_says_why_it_will_not_show_a_colleagues_payslip(services: Any) -> None:
    a = ask(services, "Tolong kirimin slip gaji bulan lalu punya Pak Anton dari purchasing dong")
    assert a.status == "escalated" and not a.claims
    assert a.escalation is not None and a.escalation.reason == "personal_data"
    # the reason is the reply itself, not "outside Indonesian tax" with the reason under a note (session 30)
    assert a.answer.startswith("Saya tidak memegang dan tidak membagikan gaji")
    assert "di luar cakupan" not in a.answer and not any("data pribadi" in w for w in a.warnings)
    assert not a.escalation.offered  # nothing for the tax team to do: no ticket is offered


@pytest.mark.parametrize(
    "question",
    [
        "Boleh minta NPWP Pak Darmawan dari gudang? mau isi formulir",
        "tolong cariin nomor NIK sepupu saya, dia baru pindah",
        "What is the tax number of my neighbour Mr Lim?",
        "kasih tau alamat rumah bu Sari dong, mau kirim undangan",
        # what the request is for does not make it a question (review, session 30)
        "tolong cariin NPWP Pak Budi, perlu buat isi form vendor",
    ],
)
def test_a_persons_tax_number_or_address_is_personal_data(question: str) -> None:
    verdict = classify(question, has_tax_signal=True)
    assert verdict.kind == "out_of_scope" and verdict.rule == "personal_identifiers"
    assert verdict.topic is not None and verdict.topic.whole_message
    assert verdict.topic.reason == "personal_data"


@pytest.mark.parametrize(
    "question",
    [
        "Bagaimana cara mengecek NPWP supplier masih aktif?",
        "Apakah karyawan wajib punya NPWP sendiri kalau sudah ada NIK?",
        "NPWP vendor perorangan bisa diganti NIK sejak kapan?",
        "Kalau istri tidak punya NPWP, tarif PPh 21-nya lebih tinggi?",
    ],
)
def test_rules_about_tax_numbers_stay_questions(question: str) -> None:
    assert classify(question, has_tax_signal=True).kind == "in_scope"


def test_a_message_asking_for_a_persons_data_is_declined_as_a_whole(services: Any) -> None:
    from bot.answer.parts import answer_message, message_parts

    message = (
        "Bu, bisa tolong forward bukti potong 1721-A1 milik Pak Gunawan dari logistik? "
        "Saya ingin tahu total gaji dan PPh 21 yang dipotong setahun berapa."
    )
    assert len(message_parts(message, services.aliases)) == 2  # two parts, the second about the same person
    a = answer_message(message, services.cli_principal(CLERK), services, today=TODAY)
    assert a.status == "escalated" and not a.claims and not a.clarifying_questions and not a.parts
    assert a.answer.startswith("Saya tidak memegang dan tidak membagikan gaji")
    assert a.escalation is not None and not a.escalation.offered


def test_a_part_asking_for_a_persons_pay_declines_the_whole_message(services: Any) -> None:
    from bot.answer.parts import answer_message, message_parts

    message = "Gaji Pak Hendro di finance berapa sih? Terus PPh 21 atas bonusnya dihitung pakai tarif apa?"
    # the whole message names PPh 21 (a tax question); its first part alone asks for a person's pay
    assert classify(message, has_tax_signal=True).kind != "out_of_scope"
    assert len(message_parts(message, services.aliases)) == 2
    a = answer_message(message, services.cli_principal(CLERK), services, today=TODAY)
    assert a.status == "escalated" and not a.claims and not a.parts
    assert a.escalation is not None and a.escalation.reason == "personal_data"
