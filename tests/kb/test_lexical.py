"""Lexical evidence for the re-rank (kb.lexical): concepts of a question, coverage and word-pair phrases."""

from __future__ import annotations

from kb.lexical import Concepts, evidence
from kb.query import understand

AYAT_4 = (
    "(4) Kategori tarif efektif bulanan sebagaimana dimaksud pada ayat (3) terdiri atas: "
    "a. kategori A diterapkan atas penghasilan bruto bulanan ..."
)
AYAT_2 = (
    "(2) Tarif efektif pemotongan Pajak Penghasilan Pasal 21 sebagaimana dimaksud pada ayat (1) huruf a ..."
)


def test_concepts_group_alias_forms_and_drop_function_words() -> None:
    concepts = Concepts.of(understand("Apa saja kategori tarif efektif bulanan?"))
    flat = {form for forms in concepts.groups for form in forms}
    assert ("kategori",) in flat and ("categorie",) in flat  # one alias entry (stemmed forms), one concept
    assert ("apa",) not in flat and ("saja",) not in flat
    kategori = next(forms for forms in concepts.groups if ("kategori",) in forms)
    assert ("category",) in kategori
    assert ("kategori", "tarif") in concepts.pairs and ("tarif", "efektif") in concepts.pairs


def test_passage_covering_every_concept_and_phrase_outscores_a_near_duplicate() -> None:
    concepts = Concepts.of(understand("Apa saja kategori tarif efektif bulanan?"))
    cov4, phr4 = evidence(concepts, AYAT_4)
    cov2, phr2 = evidence(concepts, AYAT_2)
    assert cov4 == 1.0 and phr4 == 1.0
    assert cov2 < cov4 and phr2 < phr4


def test_an_alias_form_counts_as_the_concept() -> None:
    # "output VAT" is covered by the Indonesian "Pajak Keluaran" (reviewed alias): every word of one form
    concepts = Concepts.of(understand("output VAT"))
    assert evidence(concepts, "Pajak Keluaran lebih besar daripada Pajak Masukan")[0] == 1.0
    assert evidence(concepts, "Pajak Penghasilan yang terutang")[0] == 0.0  # "pajak" alone is not it


def test_named_document_tokens_do_not_count_as_concepts() -> None:
    # every passage of PMK 168/2023 carries its number only in the prefix: it must not tell passages apart
    concepts = Concepts.of(understand("PMK 168/2023 bukti pemotongan"))
    flat = {t for forms in concepts.groups for form in forms for t in form}
    assert "168" not in flat and "2023" not in flat and "pmk" not in flat
    assert evidence(concepts, "bukti pemotongan")[0] == 1.0


def test_a_question_of_function_words_has_no_evidence() -> None:
    assert evidence(Concepts.of(understand("apa itu?")), "apa itu") == (0.0, 0.0)


def test_question_frame_words_are_not_topic() -> None:
    # "sebagaimana dimaksud" is in every rule that cites another; a definition never says "dimaksud"
    concepts = Concepts.of(understand("Yang dimaksud Bukan Pegawai itu siapa saja?"))
    flat = {t for forms in concepts.groups for form in forms for t in form}
    assert "dimaksud" not in flat
    definition = "12. Bukan Pegawai adalah orang pribadi selain Pegawai Tetap dan Pegawai Tidak Tetap"
    rule = "(4) Jumlah penghasilan bruto untuk Bukan Pegawai sebagaimana dimaksud pada ayat (3)"
    assert evidence(concepts, definition)[0] == evidence(concepts, rule)[0] == 1.0


# --- the one lexicon (kb/data/lexicon.yaml) ---------------------------------------------------------------


def test_the_lexicon_holds_every_word_list() -> None:
    from kb import lexicon
    from kb.query import FRAME_WORDS, STOPWORDS

    assert {"yang", "the", "apakah"} <= STOPWORDS == lexicon.stopwords()
    assert "dimaksud" in FRAME_WORDS and lexicon.generic_words() >= FRAME_WORDS
    assert lexicon.en_id()["withholding"] == ("potong", "dipotong", "pemotong")
    assert "sop " in lexicon.policy_words()  # kept as written: "sop " must not match "sopir"
    assert lexicon.names_policy("Menurut SOP kas kecil, tarifnya berapa?")
    assert lexicon.names_policy("apa isi memo PPh 26 untuk lisensi software?")
    # whole words only: withholding ("memotong") and drivers ("sopir") are not company documents
    assert not lexicon.names_policy("lupa memotong PPh 23 atas bunga, ada sanksinya?")
    assert not lexicon.names_policy("honor sopir harian kena PPh 21?")
    assert [t.name for t in lexicon.law_topics()] == ["KUP", "PPN", "PPh 22", "PPh"]


def test_a_malformed_lexicon_names_the_file_and_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from kb.lexicon import LexiconError, load

    bad = tmp_path / "lexicon.yaml"
    bad.write_text("version: 1\nstopwords: {id: [yang], en: [no]}\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"lexicon.yaml: stopwords.en must be a list of non-empty strings"):
        load(bad)


def test_a_lexicon_without_chat_lists_still_loads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # stopwords.id_chat and chat_spellings are optional: an older or custom lexicon without them keeps working
    import yaml

    from kb.lexicon import DEFAULT_LEXICON_PATH, load

    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    del data["stopwords"]["id_chat"]
    del data["chat_spellings"]
    path = tmp_path / "lexicon.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    lexicon = load(path)
    assert "yang" in lexicon.stopwords_id and "yg" not in lexicon.stopwords_id
    assert lexicon.chat_spellings == {}


def test_english_tax_words_reach_the_indonesian_wording() -> None:
    # "corporate" counted only against English passages before the general glossary: an Indonesian rule on
    # "Wajib Pajak badan" covered half of "What is the corporate income tax rate?"
    from kb.lexical import coverage, question_concepts

    plan = understand("What is the corporate income tax rate?")
    concepts = question_concepts(plan, plan.text)
    rule = "Tarif pajak yang diterapkan atas Penghasilan Kena Pajak bagi Wajib Pajak badan dalam negeri"
    assert coverage(concepts, rule, "id") == 1.0
    plan = understand("How long must bookkeeping records be kept?")
    concepts = question_concepts(plan, plan.text)
    keep = "Buku, catatan, dan dokumen yang menjadi dasar pembukuan atau pencatatan wajib disimpan"
    assert coverage(concepts, keep, "id") == 1.0


def test_late_payment_is_written_after_the_due_date_in_the_law() -> None:
    plan = understand("Berapa sanksi bunga kalau telat bayar pajak?")
    added = {a for e in plan.expansions for a in e.added}
    assert "setelah tanggal jatuh tempo" in added  # KUP Pasal 9 ayat (2a)'s words for a late payment


def test_late_in_english_is_after_the_due_date() -> None:
    from kb.lexical import coverage, question_concepts

    plan = understand("What is the interest penalty for late tax payment?")
    assert "setelah tanggal jatuh tempo" in {a for e in plan.expansions for a in e.added}
    concepts = question_concepts(plan, plan.text)
    rule = (
        "Atas pembayaran atau penyetoran pajak yang dilakukan setelah tanggal jatuh tempo pembayaran, "
        "dikenai sanksi administratif berupa bunga"
    )
    assert coverage(concepts, rule, "id") == 1.0


def test_a_chat_amount_is_no_topic_word() -> None:
    # "6jt" is the case's amount: no passage has to contain it
    from kb.lexical import question_concepts

    plan = understand("honor narasumber 6jt, pph 21 nya brp?")
    words = {w for c in question_concepts(plan) for phrase in c for w in phrase}
    assert "6jt" not in words
    assert "narasumber" in words


def test_a_root_ending_in_nya_keeps_it_and_asking_words_are_no_topic() -> None:
    from kb import lexicon
    from kb.lexical import stem

    # "bertanya" is ber+tanya (to ask), not berta+nya; "pemotongannya" loses its -nya, then its -an as the
    # act's "pemotongan" does (session 39)
    assert stem("bertanya") == "bertanya" and stem("mempunya") == "mempunya"
    assert stem("pemotongannya") == stem("pemotongan") == "pemotong"
    assert {"tanya", "bertanya", "nanya"} <= lexicon.stopwords()


def test_an_addressed_name_is_no_concept_a_passage_must_contain() -> None:
    from kb.lexical import question_concepts
    from kb.query import understand

    question = "numpang tanya mas Joko, biaya penyusutan mobil dinas karyawan boleh dibebankan?"
    words = {
        w
        for concept in question_concepts(understand(question), question)
        for phrase in concept
        for w in phrase
    }
    assert not {"joko", "numpang"} & words
    assert {"penyusut", "mobil"} <= words


def test_a_tag_checking_what_was_said_is_no_concept_but_a_mistake_asked_about_is() -> None:
    from kb.lexical import question_concepts
    from kb.query import understand

    def words(question: str) -> set[str]:
        return {w for c in question_concepts(understand(question), question) for phrase in c for w in phrase}

    checked = words("Tagihan sewa gudang dipotong PPh 23 sebesar 2%, betul gak?")
    assert not {"betul", "gak"} & checked and {"sewa", "gudang"} <= checked
    assert "right" not in words("Rent of a warehouse is withheld at 2 percent, right?")
    # "salah" is what this one asks about: no tag closes its clause
    assert "salah" in words("Faktur yang NPWP pembelinya salah tidak bisa diganti?")


def test_a_verb_in_the_other_voice_covers_the_same_concept() -> None:
    # the act's passive ("harus diajukan") answers an asker's active ("mengajukan"), and the other way round
    rule = "Keberatan harus diajukan dalam jangka waktu 3 (tiga) bulan sejak tanggal dikirim surat ketetapan."
    assert evidence(Concepts.of(understand("batas waktu mengajukan keberatan")), rule)[0] == 1.0
    asked = Concepts.of(understand("kapan laporan didaftarkan?"))
    assert evidence(asked, "Pemotong wajib mendaftarkan laporan tersebut")[0] == 1.0


def test_the_other_voice_of_a_word_that_is_no_verb_is_not_made_up() -> None:
    from kb.lexical import voice_partners

    assert voice_partners("menteri") == () and voice_partners("direktur") == ()
    assert voice_partners("diperhitungkan") == (("memperhitung",),)
    assert voice_partners("menyampaikan") == (("disampai",),)
