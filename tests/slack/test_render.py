"""Block Kit rendering of real answer shapes: order, citations, warnings, escaping and Slack limits."""

from __future__ import annotations

import json

from bot.messages import Reply
from bot.slack import render
from bot.slack.strings import STRINGS, answer_language, t
from tests.slack.fake_turn import UU_HPP_SOURCE, vat_answer


def texts(blocks: list[dict]) -> list[str]:
    out = []
    for block in blocks:
        if block["type"] == "section":
            out.append(block["text"]["text"])
        elif block["type"] == "context":
            out.extend(e["text"] for e in block["elements"])
    return out


def test_every_string_has_both_languages() -> None:
    assert all(set(v) == {"id", "en"} for v in STRINGS.values())


def test_answer_first_then_claim_quote_citation_then_footer_and_buttons() -> None:
    msg = render.render_answer(vat_answer(), language="id", thread_ts="1.1", reference="R1")
    lines = texts(msg.blocks)
    assert lines[0] == "Tarif PPN sejak 1 April 2022 adalah 11% (UU 7/2021 Pasal 7 ayat (1) huruf a)."
    assert lines[2] == (
        "*1.* Tarif PPN sebesar 11% berlaku mulai 1 April 2022.\n"
        "> a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;"
    )
    assert lines[3] == (
        "Peraturan: *UU 7/2021* \u00b7 Harmonisasi Peraturan Perpajakan \u00b7 Pasal 7 ayat (1) \u00b7 "
        "berlaku sejak 2021-10-29 \u00b7 berlaku \u00b7 "
        "<https://peraturan.go.id/id/uu-no-7-tahun-2021|sumber>"
    )
    assert lines[-2:] == [
        "Berdasarkan sumber per 2024-06-01 (versi korpus c0ffee12)",
        "Tingkat keyakinan: *tinggi*",
    ]
    assert msg.blocks[-1]["type"] == "actions" and msg.pages == []
    assert msg.text.startswith("Tarif PPN sejak 1 April 2022")


def test_english_answer_ocr_warning_example_unsupported_and_escalation() -> None:
    noisy = dict(UU_HPP_SOURCE, ocr_noisy=True, effective_to="2023-01-01", url="javascript:alert(1)")
    answer = vat_answer(
        language="en",
        answer="The VAT rate is 11%.",
        claims=[dict(vat_answer()["claims"][0], source=noisy, is_example=True, layer="policy")],
        unsupported_claims=[{"text": "The rate is 12% for all goods.", "reasons": ["ANGKA_TANPA_DASAR"]}],
        escalation={"reason": "low_confidence", "ticket_id": "TKT-0042"},
        confidence={"score": 0.41, "band": "low"},
    )
    lines = texts(
        render.render_answer(answer, language=answer_language(answer), thread_ts="1.1", reference="R").blocks
    )
    joined = "\n".join(lines)
    assert "_(example)_" in joined
    assert (
        "Internal policy: *UU 7/2021* \u00b7 Harmonisasi Peraturan Perpajakan \u00b7 Pasal 7 ayat (1) \u00b7 "
        "in force 2021-10-29 to 2023-01-01 \u00b7 berlaku \u00b7 source"
    ) in lines
    assert "javascript" not in joined  # only http(s) links
    assert ":warning: The text of UU 7/2021 comes from OCR" in joined
    assert (
        "*Not supported by the sources* (not part of the answer):\n"
        "\u2022 The rate is 12% for all goods. _(reasons: ANGKA_TANPA_DASAR)_"
    ) in lines
    assert t("escalated", "en", ticket="TKT-0042") in lines
    assert "Confidence: *low*" in lines
    msg = render.render_answer(answer, language="en", thread_ts="1.1", reference="R")
    assert "dasar_escalate" not in json.dumps(msg.blocks)  # a ticket exists already


def test_user_visible_text_is_escaped_so_no_mentions_or_links_are_injected() -> None:
    answer = vat_answer(answer="Hi <!channel> see <https://evil.example|here> & more")
    first = texts(render.render_answer(answer, language="id", thread_ts="1", reference="R").blocks)[0]
    assert first == "Hi &lt;!channel&gt; see &lt;https://evil.example|here&gt; &amp; more"


def test_limits_long_text_is_split_and_blocks_are_paged() -> None:
    long_answer = ("Kalimat panjang tentang PPN. " * 400).strip()
    claims = [dict(vat_answer()["claims"][0], text=f"Klaim {i}") for i in range(60)]
    msg = render.render_answer(
        vat_answer(answer=long_answer, claims=claims), language="id", thread_ts="9.9", reference="REF"
    )
    assert len(msg.blocks) == 50
    assert all(len(x) <= 3000 for x in texts(msg.blocks))
    show_more = next(b for b in msg.blocks if b.get("block_id") == "dasar_show_more")["elements"][0]
    assert json.loads(show_more["value"]) == {"l": "id", "r": "REF:1", "t": "9.9"}
    assert msg.blocks[-1]["block_id"] == "dasar_feedback"  # buttons survive truncation
    assert [len(p) <= 50 for p in msg.pages] == [True] * len(msg.pages) and len(msg.pages) >= 2
    everything = "\n".join(texts(msg.blocks) + [x for p in msg.pages for x in texts(p)])
    assert all(f"*{i + 1}.* Klaim {i}\n" in everything for i in range(60))
    assert len(long_answer) > 3000 and long_answer.split()[-1] in everything


def test_clarify_buttons_and_private_answer_never_in_public_blocks() -> None:
    answer = vat_answer(
        status="clarify",
        claims=[],
        clarifying_questions=[
            {
                "slot": "period",
                "question": "Periode pajak yang mana?",
                "options": ["Maret 2022", "April 2022"],
            },
            {"slot": "entity", "question": "Entitas mana?", "options": []},
        ],
    )
    private = vat_answer(answer="RAHASIA memo tim pajak")
    reply = Reply(answer=answer, text="", status="clarify", private_answer=private, reference_id="R7")
    public = render.render_reply(reply, language="id", thread_ts="5.5")
    dumped = json.dumps(public.blocks)
    assert "RAHASIA" not in dumped and "Entitas mana?" in dumped
    clarify = next(b for b in public.blocks if b.get("block_id") == "dasar_clarify_0")["elements"]
    assert [(e["action_id"], e["text"]["text"]) for e in clarify] == [
        ("dasar_clarify:0:0", "Maret 2022"),
        ("dasar_clarify:0:1", "April 2022"),
    ]
    assert not any(b.get("block_id") == "dasar_clarify_1" for b in public.blocks)  # no options known
    (only,) = render.render_private(reply, language="id", thread_ts="5.5")
    assert texts(only.blocks)[:2] == [
        "*Jawaban lengkap (hanya terlihat oleh Anda):*",
        "RAHASIA memo tim pajak",
    ]
