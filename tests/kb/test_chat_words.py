"""Chat spellings, pronouns, adverbs and prefix-less verbs of Slack Indonesian (session 37).

Each word below was a concept a passage had to contain although it names no topic ("trus", "sampe", "dia",
"cuma", "senilai"), or a verb the acts write in another form ("ngajuin" ~ "mengajukan").  The lists were
written from Indonesian chat grammar; the messages are our own.
"""

from __future__ import annotations

import pytest

from kb.lexical import coverage, question_concepts
from kb.query import understand


def _words(question: str) -> set[str]:
    return {w for c in question_concepts(understand(question), question) for phrase in c for w in phrase}


@pytest.mark.parametrize(
    ("message", "gone"),
    [
        ("trus PPh 21 nya disetor sampe tgl brp?", {"trus", "sampe", "sampai", "terus"}),
        ("denger2 dia cuma kena PPh final ya?", {"denger", "dia", "cuma"}),
        ("emang bbrp jenis jasa kena PPh 23?", {"emang", "memang", "bbrp", "beberapa"}),
        ("kwitansi senilai 7jt jadi perlu dikasih meterai lagi?", {"senilai", "jadi", "lagi", "dikasih"}),
        # session 53: the light verb of belonging and the word that frames a status code
        ("bingkisan akhir tahun buat staf masuk natura ga?", {"masuk"}),
        ("karyawan status TK/1 potongannya gmn?", {"status", "statu"}),
        ("Kami sewa gudang. Pertanyaannya, sewa itu dipotong PPh apa?", {"pertanyaannya", "pertanya"}),
        # session 54: a duration glued to its number is a fact of the case, as "7jt" is
        ("termin 60hari dan 12bln, faktur pelunasannya kapan?", {"60hari", "12bln"}),
    ],
)
def test_chat_function_words_are_no_concepts(message: str, gone: set[str]) -> None:
    assert not gone & _words(message)


def test_chat_spellings_are_read_as_the_acts_words() -> None:
    # "org pribadi" is the acts' "orang pribadi"; "tetep" is "tetap"
    assert "orang" in _words("honor ke org pribadi kena PPh 21?")
    assert "tetap" in _words("pegawai tetep dapat bonus, PPh 21 nya gmn?")
    assert "tetep" not in _words("pegawai tetep dapat bonus, PPh 21 nya gmn?")


@pytest.mark.parametrize(
    ("message", "word", "passage"),
    [
        ("batas ngajuin keberatan kapan?", "ngajuin", "Keberatan harus diajukan dalam jangka waktu 3 bulan"),
        ("PPh nya kita yg nanggung apa vendor?", "nanggung", "Pajak yang terutang ditanggung oleh pemberi"),
        ("kapan nerbitin faktur?", "nerbitin", "Faktur Pajak harus dibuat atau diterbitkan pada saat"),
        ("boleh dikreditin?", "dikreditin", "Pajak Masukan dapat dikreditkan"),
        # -in after a vowel (session 40): a passive di- verb's "-ain" is the chat suffix, a root's is not
        ("uang lembur dikenain PPh gak?", "dikenain", "atas penghasilan itu dikenakan Pajak Penghasilan"),
        ("mess karyawan yg disediain kantor?", "disediain", "tempat tinggal yang disediakan pemberi kerja"),
    ],
)
def test_a_chat_verb_is_covered_by_the_acts_forms(message: str, word: str, passage: str) -> None:
    # the concept holds the chat word as stemmed ("nerbitin" -> "nerbit")
    concept = next(
        c for c in question_concepts(understand(message), message) if any(word.startswith(p[0]) for p in c)
    )
    assert coverage([concept], passage) == 1.0
    # and only by them: the bare chat form is no stem of an unrelated word
    assert coverage([concept], "Pajak Penghasilan atas bunga obligasi") == 0.0


@pytest.mark.parametrize(
    ("message", "gone"),
    [
        ("Kenapa faktur kami ditolak sistem?", {"kenapa"}),
        ("knp bukti potongnya belum terbit?", {"knp"}),
        ("Mengapa dividen itu dikecualikan, dan dimana aturannya?", {"mengapa", "dimana"}),
    ],
)
def test_why_and_where_name_no_topic(message: str, gone: set[str]) -> None:
    # session 39: "kenapa" / "mengapa" / "dimana" were ask words but not stopwords
    words = _words(message)
    assert not gone & words
    assert words  # the topic words stay


def test_a_root_ending_in_ain_keeps_it() -> None:
    from kb.lexical import _question_word

    assert _question_word("bermain", frozenset()) == "bermain"
    assert _question_word("dikenain", frozenset()) == "dikena"


def test_a_negated_phrase_is_mentioned_only_with_its_negation_beside_the_word() -> None:
    # "single" is "tidak kawin": the "Tidak" of "Penghasilan Tidak Kena Pajak" and an item's "yang kawin" do
    # not mention it (session 53: an English PTKP question for a single taxpayer quoted the married addition)
    single = [frozenset({("single",), ("tidak", "kawin")})]
    lead_in_and_item = "Penghasilan Tidak Kena Pajak per tahun diberikan: b. tambahan untuk yang kawin"
    assert coverage(single, lead_in_and_item) == 0.0
    assert coverage(single, "status Penghasilan Tidak Kena Pajak: tidak kawin tanpa tanggungan") == 1.0
