"""How a chat message is cut into its asks (kb.lexical: sentences, asking_sentences, story_sentences).

A clerk numbers or letters the asks of one message ("1) ... 2) ..."), puts them on bullet lines, or joins two
asks with "dan"/"terus"/"sama"; each is a question of its own.  The words that tell the case ("honor
narasumber Rp4jt:") ask nothing.  Messages are our own, written for these tests.
"""

from __future__ import annotations

from kb.lexical import asking_sentences, asks_in_words, question_parts, sentences, story_sentences


def test_an_inline_numbered_list_is_cut_before_each_item_and_its_markers_dropped() -> None:
    message = "honor narasumber Rp4jt: 1) bisa dibayar tunai? 2) DPP PPh 21 nya berapa?"
    assert sentences(message) == ["honor narasumber Rp4jt:", "bisa dibayar tunai?", "DPP PPh 21 nya berapa?"]
    assert asking_sentences(message) == ["bisa dibayar tunai?", "DPP PPh 21 nya berapa?"]
    assert story_sentences(message) == ["honor narasumber Rp4jt:"]
    dotted = "mau tanya 1. batas kas kecil berapa 2. bukti potong dibuat kapan"
    assert asking_sentences(dotted) == ["batas kas kecil berapa", "bukti potong dibuat kapan"]
    lettered = "a) NSFP berapa digit b) statusnya harus apa?"
    assert asking_sentences(lettered) == ["NSFP berapa digit", "statusnya harus apa?"]


def test_bullet_lines_lose_their_bullet() -> None:
    message = "- tarif PPN sekarang berapa?\n- faktur pajaknya kapan dibuat?"
    assert asking_sentences(message) == ["tarif PPN sekarang berapa?", "faktur pajaknya kapan dibuat?"]


def test_numbers_that_count_no_list_do_not_cut() -> None:
    # "21." after a tax type and a lone "2)" are no list; "ayat (2)" is a provision, "Rp6.000.000" an amount
    assert sentences("PPh 21. Terus 2) apa") == ["PPh 21.", "Terus 2) apa"]
    assert sentences("Pasal 4 ayat (2) tarifnya berapa?") == ["Pasal 4 ayat (2) tarifnya berapa?"]
    assert sentences("bayar Rp6.000.000 1) a 3) b") == ["bayar Rp6.000.000 1) a 3) b"]


def test_two_asks_joined_by_dan_or_terus_are_two() -> None:
    assert asking_sentences("PPh 23 nya berapa dan kapan disetor?") == ["PPh 23 nya berapa", "kapan disetor?"]
    assert asking_sentences("fakturnya bisa dikreditkan ga, terus returnya gimana?") == [
        "fakturnya bisa dikreditkan ga",
        "returnya gimana?",
    ]
    assert asking_sentences("tarif pph 21 brp sih trus setornya kapan") == [
        "tarif pph 21 brp sih",
        "setornya kapan",
    ]


def test_dan_between_two_nouns_joins_no_asks() -> None:
    # the "dan" follows no closed ask: one question about two taxes
    assert asking_sentences("Apakah PPh 21 dan PPh 23 sama tarifnya?") == []
    assert asking_sentences("Berapa tarif PPN dan PPnBM?") == []
    assert question_parts("Berapa tarif PPN dan PPnBM?") == []


def test_asking_in_words_is_not_asking_by_the_mark_alone() -> None:
    assert asks_in_words("kode kantor pusatnya apa?")
    assert asks_in_words("SNL potong PPh 23 ga?")
    assert not asks_in_words("Atau harus dicek ulang ya pak?")
