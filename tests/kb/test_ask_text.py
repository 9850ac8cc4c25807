"""Relevance is judged on the sentences that ask, not on the story told around them."""

from __future__ import annotations

from kb.lexical import ask_text, question_concepts
from kb.query import understand

ASK = "Pertanyaan kami, apakah atas sewa gudang tersebut dipotong PPh dan berapa tarifnya?"
STORY = (
    "Kantor kami menyewa gudang milik koperasi sejak awal tahun. Koperasi itu juga menagih biaya listrik dan "
    f"keamanan setiap bulan. {ASK}"
)


def test_the_ask_is_the_question_sentence_of_a_story() -> None:
    assert (
        ask_text(STORY)
        == "Pertanyaan kami, apakah atas sewa gudang tersebut dipotong PPh dan berapa tarifnya?"
    )
    # one sentence, or every sentence asking: the whole message
    assert ask_text("Berapa tarif PPh 23 atas sewa gudang?") == "Berapa tarif PPh 23 atas sewa gudang?"
    both = "Apakah sewa gudang kena PPh? Berapa tarifnya?"
    assert ask_text(both) == both
    # English: an interrogative counts only at the start of a sentence ("is" inside a story is not an ask)
    en = "Our office is rented from a cooperative. What is the withholding rate on the rent?"
    assert ask_text(en) == "What is the withholding rate on the rent?"


def test_composer_concepts_come_from_the_ask_and_keep_named_tax_types() -> None:
    plan = understand(STORY)
    story_words = {"listrik", "keamanan", "koperasi"}
    flat = {s for c in question_concepts(plan, STORY, focus_ask=True) for phrase in c for s in phrase}
    assert not any(w.startswith(x[:5]) for w in flat for x in story_words)
    assert any(s.startswith("gudang") for s in flat) and any(s.startswith("sewa") for s in flat)
    whole = {s for c in question_concepts(plan, STORY) for phrase in c for s in phrase}
    assert any(w.startswith("listrik") for w in whole)  # retrieval still sees the whole story
    # a contentless ask ("Gimana?") falls back to the whole message
    vague = "Kantor kami menyewa gudang milik koperasi dan dipotong PPh 23. Gimana?"
    vague_flat = {
        s for c in question_concepts(understand(vague), vague, focus_ask=True) for p in c for s in p
    }
    assert any(s.startswith("gudang") for s in vague_flat)
