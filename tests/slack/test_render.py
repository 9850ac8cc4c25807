"""Block Kit rendering of real answer shapes: order, citations, escaping, paging and Slack's limits.

Every rendered message of the representative set (short, long, conflicting, withheld, restricted,
relayed, clarify, refused) is checked with slack_sdk's own block models (``Block.parse`` +
``to_dict``, which runs their length/count validators; unknown keys are errors) and with Slack's
documented limits, and compared with a stored snapshot (``tests/slack/snapshots``; regenerate with
``DASAR_UPDATE_SNAPSHOTS=1`` after reviewing the diff).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.models.blocks import Block

from bot.messages import Reply
from bot.slack import mrkdwn, render
from bot.slack.strings import STRINGS, answer_language, t
from tests.slack.fake_turn import MEMO_SOURCE, UU_HPP_SOURCE, lead_in_answer, vat_answer

SNAPSHOTS = Path(__file__).parent / "snapshots"
LINK = re.compile(r"<(https?://[^|<>\s]+)\|[^<>]*>")


def texts(blocks: list[dict]) -> list[str]:
    out = []
    for block in blocks:
        if block["type"] == "section":
            out.append(block["text"]["text"])
        elif block["type"] == "context":
            out.extend(e["text"] for e in block["elements"])
    return out


def validate(message: render.RenderedMessage) -> None:
    """slack_sdk's validators + Slack's documented limits + our safety rules, for one message."""
    blocks = message.blocks
    assert 1 <= len(blocks) <= 50
    assert render.block_chars(blocks) <= render.MAX_MESSAGE_CHARS < 12_000
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # slack_sdk warns on unknown keys
        for block in blocks:
            parsed = Block.parse(block)
            assert parsed is not None, block
            assert parsed.to_dict() == block  # to_dict() runs the validators; nothing dropped
    for block in blocks:
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= 3000
        if block["type"] == "context":
            assert len(block["elements"]) <= 10
        for element in block.get("elements", []):
            if element.get("type") == "button":
                assert len(element["text"]["text"]) <= 75 and len(element["value"]) <= 2000
    for text in [*texts(blocks), message.text]:
        bare = LINK.sub("", text)
        assert "<" not in bare and ">" not in bare.replace("&gt;", "").lstrip("> ").replace("\n> ", "\n"), (
            text
        )
    assert len(message.text) <= 4000


def snapshot(name: str, payload: Any) -> None:
    path = SNAPSHOTS / f"{name}.json"
    rendered = json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if os.environ.get("DASAR_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(rendered, encoding="utf-8")
    assert rendered == path.read_text(encoding="utf-8"), f"snapshot {name} changed"


def as_payload(messages: list[render.RenderedMessage]) -> list[dict[str, Any]]:
    return [{"text": m.text, "blocks": m.blocks, "pages": m.pages} for m in messages]


# -- the representative set ---------------------------------------------------------------------

PMK_SOURCE = {
    "doc_id": "pmk-xx-2010",
    "number": "PMK 99/2010",
    "title": "Tarif PPN lama",
    "location": "Pasal 2",
    "effective_from": "2010-01-01",
    "effective_to": None,
    "status": "berlaku",
    "url": "https://jdih.kemenkeu.go.id/pmk-99-2010",
    "ocr_noisy": True,
}

LONG_ANSWER = (
    "**Jawaban**\n"
    "Tarif PPN sejak 1 April 2022 adalah 11%.\n"
    "**Dasar hukum**\n"
    '- Tarif PPN 11%\n  > "a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;"\n'
    "  \u2014 UU 7/2021 Pasal 7 ayat (1) (berlaku, 2021-10-29 \u2013 now)\n"
    "(berdasarkan sumber per 2024-06-01)"
)


def short() -> dict[str, Any]:
    return vat_answer()


def long() -> dict[str, Any]:
    claims = [
        dict(
            vat_answer()["claims"][0],
            text=f"Klaim {i}: " + "rincian ketentuan PPN " * 8,
            quote="kutipan " * 60,
        )
        for i in range(60)
    ]
    return vat_answer(answer=("Kalimat panjang tentang PPN. " * 150).strip(), claims=claims)


def conflicting() -> dict[str, Any]:
    old = dict(
        vat_answer()["claims"][0], text="Tarif PPN 10%.", quote="Tarif PPN adalah 10% (sepuluh persen)."
    )
    old["source"] = PMK_SOURCE
    return vat_answer(
        language="en",
        answer=LONG_ANSWER,
        claims=[vat_answer()["claims"][0], old],
        conflicts=[
            {
                "topic": "PPN",
                "sources": [
                    {
                        "doc_id": "uu-7-2021",
                        "number": "UU 7/2021",
                        "location": "Pasal 7 ayat (1)",
                        "figures": ["11%"],
                    },
                    {
                        "doc_id": "pmk-xx-2010",
                        "number": "PMK 99/2010",
                        "location": "Pasal 2",
                        "figures": ["10%"],
                    },
                ],
                "decided_by": "later_effective_date",
                "preferred": "uu-7-2021",
            }
        ],
    )


def withheld() -> dict[str, Any]:
    return vat_answer(
        answer="Tarif PPN 11% <!here> & berlaku.",
        unsupported_claims=[
            {
                "text": "Tarif 12% berlaku untuk semua barang <!channel>.",
                "quote": "",
                "source_id": None,
                "codes": ["figure_not_in_quote"],
                "messages": ["Angka 12% tidak ada dalam kutipan."],
            }
        ],
        escalation={"reason": "low_confidence", "ticket_id": "T-000042", "offered": False},
        confidence={"score": 0.41, "band": "low"},
    )


def restricted() -> Reply:
    public = vat_answer()
    private = vat_answer(
        answer="PPh 26 atas lisensi software dari Singapura: lihat memo tim pajak.",
        claims=[
            dict(
                vat_answer()["claims"][0],
                text="Memo: tarif PPh 26 10% dengan SKD.",
                quote="dikenakan 10% bila SKD dilampirkan",
                layer="policy",
                source=MEMO_SOURCE,
            )
        ],
    )
    return Reply(
        answer=public, text=public["answer"], status="answered", private_answer=private, reference_id="R9"
    )


RELAY = "Tarifnya 4% <!channel> lihat <https://evil.example|di sini>.\n\n" + ("Penjelasan panjang. " * 300)


def test_representative_set_passes_validators_limits_and_snapshots() -> None:
    rendered = {
        "short": [render.render_answer(short(), language="id", thread_ts="1.1", reference="R1")],
        "long": [render.render_answer(long(), language="id", thread_ts="1.2", reference="R2")],
        "conflicting": [render.render_answer(conflicting(), language="en", thread_ts="1.3", reference="R3")],
        "withheld": [render.render_answer(withheld(), language="id", thread_ts="1.4", reference="R4")],
        "restricted": [
            render.render_reply(restricted(), language="id", thread_ts="1.5"),
            *render.render_private(restricted(), language="id", thread_ts="1.5"),
        ],
        "relayed": render.render_relay(RELAY, ticket_id="T-000042", header="*Jawaban Tim Pajak*"),
    }
    for name, messages in rendered.items():
        for message in messages:
            validate(message)
            for page in message.pages:
                validate(render.RenderedMessage(text="x", blocks=page))
        snapshot(name, as_payload(messages))


# -- behaviour ------------------------------------------------------------------------------------


def test_every_string_has_both_languages() -> None:
    assert all(set(v) == {"id", "en"} for v in STRINGS.values())


def test_short_answer_first_then_claim_with_quote_and_link_then_one_sources_line_and_feedback() -> None:
    msg = render.render_answer(short(), language="id", thread_ts="1.1", reference="R1")
    lines = texts(msg.blocks)
    assert lines[0] == "Tarif PPN sejak 1 April 2022 adalah 11% (UU 7/2021 Pasal 7 ayat (1) huruf a)."
    assert lines[2] == (
        "*1.* Tarif PPN sebesar 11% berlaku mulai 1 April 2022.\n"
        "> a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;\n"
        "\u2014 _Peraturan_ \u00b7 <https://peraturan.go.id/id/uu-no-7-tahun-2021|UU 7/2021 Pasal 7 ayat (1)>"
    )
    assert lines[3:] == [
        "Sumber: *UU 7/2021* Harmonisasi Peraturan Perpajakan (berlaku sejak 2021-10-29; berlaku)",
        "Berdasarkan sumber per 2024-06-01 (versi korpus c0ffee12)",
        "Tingkat keyakinan: *tinggi*",
    ]
    feedback = next(b for b in msg.blocks if b["type"] == "context_actions")
    (element,) = feedback["elements"]
    assert element["type"] == "feedback_buttons" and element["action_id"] == render.ACTION_FEEDBACK
    assert json.loads(element["negative_button"]["value"]) == {
        "b": "high",
        "c": "c0ffee12",
        "l": "id",
        "r": "R1",
        "s": "answered",
        "t": "1.1",
        "v": "down",
    }
    assert msg.blocks[-1]["elements"][0]["action_id"] == render.ACTION_ESCALATE
    assert render.block_chars(msg.blocks) < 2500  # was 7k for the same answer
    assert msg.pages == [] and msg.text.startswith("Tarif PPN sejak 1 April 2022")


def test_each_quote_once_and_as_of_once_even_for_the_long_pipeline_text() -> None:
    msg = render.render_answer(conflicting(), language="en", thread_ts="1", reference="R")
    dumped = json.dumps(msg.blocks, ensure_ascii=False)
    assert dumped.count("sebesar 11% (sebelas persen)") == 1
    assert dumped.lower().count("sources as of") == 1 and "berdasarkan sumber per" not in dumped
    assert "**" not in dumped and '&gt; \\"' not in dumped
    assert texts(msg.blocks)[0] == "Tarif PPN sejak 1 April 2022 adalah 11%."


def test_conflicts_are_explained_in_words_not_internal_fields() -> None:
    lines = texts(render.render_answer(conflicting(), language="en", thread_ts="1", reference="R").blocks)
    conflict = next(x for x in lines if x.startswith("*Conflicting provisions:*"))
    assert conflict == (
        "*Conflicting provisions:*\n"
        "\u2022 UU 7/2021 Pasal 7 ayat (1) (11%) and PMK 99/2010 Pasal 2 (10%) give different figures. "
        "*UU 7/2021* applies because it took effect later."
    )
    assert "decided_by" not in conflict and "preferred" not in conflict
    assert ":warning: The text of PMK 99/2010 comes from OCR" in "\n".join(lines)


def test_withheld_claims_show_the_reason_messages_and_everything_untrusted_is_escaped() -> None:
    msg = render.render_answer(withheld(), language="id", thread_ts="1", reference="R")
    lines = texts(msg.blocks)
    assert lines[0] == "Tarif PPN 11% &lt;!here&gt; &amp; berlaku."
    assert (
        "*Tidak didukung sumber* (bukan bagian dari jawaban):\n"
        "\u2022 Tarif 12% berlaku untuk semua barang &lt;!channel&gt;. "
        "\u2014 _Angka 12% tidak ada dalam kutipan._"
    ) in lines
    assert "figure_not_in_quote" not in json.dumps(msg.blocks)
    assert msg.text == "Tarif PPN 11% &lt;!here&gt; &amp; berlaku."
    assert t("escalated", "id", ticket="T-000042") in lines
    assert render.ACTION_ESCALATE not in json.dumps(msg.blocks)  # a ticket exists already


def test_markdown_becomes_mrkdwn_and_only_http_links_survive() -> None:
    md = (
        "**Tarif** _naik_ ke ~~10%~~ 11% [UU HPP](https://x.go.id/a) [bad](javascript:alert(1)) `a<b`\n- satu"
    )
    assert mrkdwn.to_mrkdwn(md) == (
        "*Tarif* _naik_ ke ~10%~ 11% <https://x.go.id/a|UU HPP> bad) `a&lt;b`\n\u2022 satu"
    )
    noisy = dict(UU_HPP_SOURCE, url="javascript:alert(1)")
    answer = vat_answer(claims=[dict(vat_answer()["claims"][0], source=noisy, is_example=True)])
    dumped = json.dumps(render.render_answer(answer, language="en", thread_ts="1", reference="R").blocks)
    assert "javascript" not in dumped and "_(example)_" in dumped


def test_long_answers_page_by_blocks_and_characters_in_order() -> None:
    msg = render.render_answer(long(), language="id", thread_ts="9.9", reference="REF")
    assert len(msg.blocks) <= 50 and render.block_chars(msg.blocks) <= render.MAX_MESSAGE_CHARS
    show_more = next(b for b in msg.blocks if b.get("block_id") == "dasar_show_more")["elements"][0]
    assert json.loads(show_more["value"]) == {"l": "id", "r": "REF:1", "t": "9.9"}
    assert msg.blocks[-2]["type"] == "context_actions"  # feedback survives truncation
    assert len(msg.pages) >= 3
    everything = "\n".join(texts(msg.blocks) + [x for p in msg.pages for x in texts(p)])
    positions = [everything.index(f"*{i + 1}.* Klaim {i}:") for i in range(60)]
    assert positions == sorted(positions)
    for i, page in enumerate(msg.pages[:-1], start=2):
        more = next(b for b in page if b.get("block_id") == "dasar_show_more")["elements"][0]
        assert json.loads(more["value"])["r"] == f"REF:{i}"


def test_relay_is_split_in_order_with_ticket_id_and_continuation_marker() -> None:
    parts = render.render_relay(
        RELAY, ticket_id="T-000042", language="id", header="*Jawaban Tim Pajak*", footer="_sumber: PMK_"
    )
    assert len(parts) >= 3
    joined = "".join(texts(p.blocks)[0] for p in parts)
    assert texts(parts[0].blocks)[0].startswith("*Jawaban Tim Pajak*\nTarifnya 4% &lt;!channel&gt; lihat")
    assert "<https://evil.example" not in joined
    assert joined.count("Penjelasan panjang.") == 300
    for i, part in enumerate(parts, start=1):
        notes = part.blocks[-1]["elements"]
        assert notes[-1]["text"] == f"_Tiket T-000042, bagian {i}/{len(parts)}_"
        assert (notes[0]["text"] == "_(bersambung)_") == (i < len(parts))
    assert texts(parts[-1].blocks)[-2] == "_sumber: PMK_"
    (single,) = render.render_relay("Singkat.", ticket_id="T-1")
    assert texts(single.blocks) == ["Singkat."]


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
    validate(public)
    dumped = json.dumps(public.blocks)
    assert "RAHASIA" not in dumped and "Entitas mana?" in dumped
    clarify = next(b for b in public.blocks if b.get("block_id") == "dasar_clarify_0")["elements"]
    assert [(e["action_id"], e["text"]["text"]) for e in clarify] == [
        ("dasar_clarify:0:0", "Maret 2022"),
        ("dasar_clarify:0:1", "April 2022"),
    ]
    assert not any(b.get("block_id") == "dasar_clarify_1" for b in public.blocks)
    assert t("private_offer", "id") in texts(public.blocks)
    (only,) = render.render_private(reply, language="id", thread_ts="5.5")
    assert texts(only.blocks)[:2] == [
        "*Jawaban lengkap (hanya terlihat oleh Anda):*",
        "RAHASIA memo tim pajak",
    ]


def test_private_answer_longer_than_one_message_is_split_in_order() -> None:
    reply = Reply(answer=short(), text="", status="answered", private_answer=long(), reference_id="R8")
    parts = render.render_private(reply, language="id", thread_ts="5.5")
    assert len(parts) >= 3
    for part in parts:
        validate(part)
    joined = "\n".join(x for p in parts for x in texts(p.blocks))
    assert [joined.index(f"*{i + 1}.* Klaim {i}:") for i in range(60)] == sorted(
        joined.index(f"*{i + 1}.* Klaim {i}:") for i in range(60)
    )


def test_refused_answer_has_feedback_but_no_escalation_and_language_follows_answer() -> None:
    answer = vat_answer(status="refused", answer="", claims=[], language="en")
    msg = render.render_answer(answer, language=answer_language(answer), thread_ts="1", reference="R")
    validate(msg)
    assert texts(msg.blocks)[0] == t("refused", "en")
    assert any(b["type"] == "context_actions" for b in msg.blocks)
    assert render.ACTION_ESCALATE not in json.dumps(msg.blocks)
    # no claims, nothing to be confident about: the footer names no confidence band
    confidence_words = {t("confidence", "en", band=t(f"band.{b}", "en")) for b in ("high", "medium", "low")}
    assert not any(w in json.dumps(msg.blocks) for w in confidence_words)
    answered = render.render_answer(vat_answer(), language="id", thread_ts="1", reference="R")
    band = vat_answer()["confidence"]["band"]
    assert t("confidence", "id", band=t(f"band.{band}", "id")) in json.dumps(
        answered.blocks, ensure_ascii=False
    )


@pytest.mark.parametrize(
    "bad", ["<!channel>", "<!here>", "<@U123>", "<https://evil.example|click>", "a & b > c"]
)
def test_escape_covers_every_control_sequence(bad: str) -> None:
    out = mrkdwn.to_mrkdwn(bad)
    assert "<" not in out and (">" not in out.lstrip(">"))


def test_real_answer_model_json_renders_with_explanations_and_withheld_summary() -> None:
    import datetime as dt

    from bot.answer import model as m

    source = m.SourceRef(
        "uu-7-2021", "UU 7/2021", "Harmonisasi Peraturan Perpajakan", "Pasal 7 ayat (1)",
        dt.date(2021, 10, 29), None, "in_force", "https://peraturan.go.id/id/uu-no-7-tahun-2021", False, "c1",
    )  # fmt: skip
    claim = m.ShownClaim("Tarif PPN 11% sejak 1 April 2022.", "sebesar 11% (sebelas persen)", "regulation",
                         False, "entailed", source)  # fmt: skip
    withheld = m.UnsupportedClaim(
        "Tarif 12% <!here>.", "", None, ("figure_not_in_quote",), ("Angka 12% tidak dikutip.",)
    )
    conflict = m.Conflict("PPN", (), "later_effective_date", "uu-7-2021")
    answer = m.Answer(
        status="answered", answer="Tarif PPN 11% [1].", claims=(claim,), unsupported_claims=(withheld,),
        clarifying_questions=(), conflicts=(conflict,), confidence=m.Confidence(0.8, "high", None, 0.8, 0.8),
        as_of=dt.date(2024, 6, 1), corpus_version="v1", escalation=None, warnings=(),
    )  # fmt: skip
    payload = answer.to_json()
    msg = render.render_answer(payload, language="id", thread_ts="1", reference="R")
    validate(msg)
    joined = "\n".join(texts(msg.blocks))
    assert joined.startswith("Tarif PPN 11% [1].")
    assert "&lt;!here&gt;" in joined and "Angka 12% tidak dikutip." in joined
    explanation = payload["conflicts"][0].get("explanation")
    if explanation:
        assert escape_words(explanation) in joined
    else:
        assert "*uu-7-2021* yang berlaku karena mulai berlaku lebih akhir." in joined
    summary = payload.get("withheld_summary")
    if summary:
        assert f"*{escape_words(summary)}*" in joined


def escape_words(text: str) -> str:
    return mrkdwn.escape(" ".join(text.split()))


def test_an_extractive_claim_prints_its_lead_in_and_its_quote_once() -> None:
    # an extractive claim's text is its quote with the provision's lead-in: the passage is shown once
    answer = lead_in_answer()
    dumped = json.dumps(render.render_answer(answer, language="id", thread_ts="1", reference="R").blocks)
    assert dumped.count("paling sedikit 40% (empat puluh persen)") == 1
    assert "Wajib Pajak badan dalam negeri:" in dumped


def test_a_claim_heading_tolerates_the_item_label_the_claim_text_drops() -> None:
    from bot.answer.model import claim_heading

    quote = "1. dividen yang berasal dari dalam negeri yang diterima atau diperoleh Wajib Pajak"
    assert claim_heading(quote[3:], quote) == ""
    assert claim_heading(f"Dikecualikan dari objek pajak: {quote}", quote) == "Dikecualikan dari objek pajak:"
    assert claim_heading("The rate is 11%.", "(1) Tarif Pajak Pertambahan Nilai yaitu sebesar 11%") == (
        "The rate is 11%."
    )
