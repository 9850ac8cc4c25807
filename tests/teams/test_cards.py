"""Teams cards and the app package, validated.

Every card (ticket cards in every status, the FAQ card, answer cards for the representative set) is
checked (1) by a hand-written Adaptive Cards 1.5 element/property table and (2) against the official
Adaptive Cards JSON schema of its declared version, vendored in ``tests/teams/data/adaptive-cards/``
(Microsoft's MIT-licensed schema, see ``tests/teams/data/README.md``; a missing copy fails, never skips).
Cards stay under Teams' ~28 KB cap.  The app package validates against the vendored Teams manifest schema.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import importlib.util
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Reply
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.actions import ActionHandler, parse_action
from identity.principal import Principal
from tests.slack.fake_turn import lead_in_answer, vat_answer
from tests.slack.test_render import conflicting, long, restricted, withheld
from tests.support.scripts import load_script
from tests.tickets.conftest import T0, FakeClock, open_args
from tickets import SqliteTicketStore

ROOT = Path(__file__).resolve().parents[2]


teams_package = load_script("scripts/teams_package.py")

# -- Adaptive Cards 1.5: the elements and properties these cards may use ----------------------------
_COMMON_ELEMENT = {"type", "id", "isVisible", "separator", "spacing", "height", "requires", "fallback"}
_COMMON_ACTION = {
    "type",
    "title",
    "iconUrl",
    "id",
    "style",
    "fallback",
    "tooltip",
    "isEnabled",
    "mode",
    "requires",
}
ALLOWED_1_5: dict[str, set[str]] = {
    "AdaptiveCard": {"type", "$schema", "version", "body", "actions", "fallbackText", "lang", "speak", "rtl"},
    "TextBlock": _COMMON_ELEMENT
    | {
        "text",
        "wrap",
        "weight",
        "size",
        "color",
        "isSubtle",
        "maxLines",
        "horizontalAlignment",
        "fontType",
        "style",
    },
    "Container": _COMMON_ELEMENT
    | {"items", "style", "bleed", "minHeight", "rtl", "verticalContentAlignment"},
    "FactSet": _COMMON_ELEMENT | {"facts"},
    "Input.Text": _COMMON_ELEMENT
    | {"label", "isMultiline", "isRequired", "errorMessage", "maxLength", "placeholder", "value", "regex"},
    "Action.Execute": _COMMON_ACTION | {"verb", "data", "associatedInputs"},
    "Action.Submit": _COMMON_ACTION | {"data", "associatedInputs"},
    "Action.ShowCard": _COMMON_ACTION | {"card"},
    "Action.OpenUrl": _COMMON_ACTION | {"url"},
}
#: Properties that exist only from a later version than 1.5 (e.g. ``metadata`` is 1.6).
NEWER_THAN_1_5 = {
    "metadata",
    "Table",
    "Icon",
    "Badge",
    "Carousel",
    "CodeBlock",
    "menuActions",
    "conditionallyEnabled",
}


def check_v15(card: dict[str, Any]) -> None:
    assert card["version"] == "1.5" and card["type"] == "AdaptiveCard"

    def walk(node: Any, nested_card: bool = False) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("type")
        if kind in ALLOWED_1_5:
            extra = set(node) - ALLOWED_1_5[kind]
            assert not extra, f"{kind} has properties outside Adaptive Cards 1.5: {extra}"
            assert not (set(node) & NEWER_THAN_1_5)
        elif kind is not None and "title" in node and "value" in node:
            pass  # a Fact
        elif kind is not None:
            raise AssertionError(f"element type {kind} is not used by our cards / not in 1.5")
        for key in ("body", "items", "actions"):
            if key in node:
                walk(node[key])
        if kind == "Action.ShowCard":
            walk(node["card"], nested_card=True)
        if kind == "Action.Execute":
            assert node["fallback"]["type"] == "Action.Submit" and node["fallback"]["data"] == node["data"]

    walk(card)


SCHEMA_DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def schema_validator(version: str) -> Any:
    """The validator of the official Adaptive Cards schema of ``version`` (the vendored copy)."""
    import jsonschema

    path = SCHEMA_DATA / "adaptive-cards" / f"{version}.0" / "adaptive-card.json"
    assert path.is_file(), f"no Adaptive Cards {version} schema at {path} (see tests/teams/data/README.md)"
    schema = json.loads(path.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def schema_errors(card: dict[str, Any]) -> list[str]:
    validator = schema_validator(card["version"])
    return [f"{list(e.absolute_path)}: {e.message[:300]}" for e in validator.iter_errors(card)]


def validate_card(card: dict[str, Any]) -> None:
    check_v15(card)
    assert len(json.dumps(card, ensure_ascii=False, separators=(",", ":")).encode()) <= cards.MAX_CARD_BYTES
    errors = schema_errors(card)
    assert not errors, errors


# -- fixtures ------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Any:
    clock = FakeClock()
    with SqliteTicketStore(tmp_path / "t.db", clock=clock) as s:
        yield s


def tickets_in_every_status(store: SqliteTicketStore) -> list[Any]:
    t1, _ = store.open_ticket(**open_args(1))
    t2, _ = store.open_ticket(**open_args(2, reason="advice"))
    store.claim(t2.id, "tax-ana@snr.co.id")
    t3, _ = store.open_ticket(**open_args(3))
    store.claim(t3.id, "tax-ana@snr.co.id")
    store.answer(
        t3.id, "tax-ana@snr.co.id", "Tarifnya 11%.", [{"number": "UU 7/2021", "url": "https://x.go.id"}]
    )
    t4, _ = store.open_ticket(**open_args(4))
    store.ask_info(t4.id, "tax-ana@snr.co.id", "Periode mana?")
    t5, _ = store.open_ticket(**open_args(5))
    store.reject(t5.id, "tax-ana@snr.co.id", "di luar cakupan")
    store.close(t3.id, "tax-ana@snr.co.id")
    return [store.get(t.id) for t in (t1, t2, t3, t4, t5)]


def principal() -> Principal:
    return Principal(
        platform="teams",
        tenant="tenant-1",
        platform_user_id="aad-1",
        email="ap@snr.co.id",
        display_name="AP Clerk",
    )


# -- tests -----------------------------------------------------------------------------------------


def test_the_vendored_schema_is_1_5_and_refuses_what_1_5_does_not_allow() -> None:
    """The validation can fail: the 1.6 ``metadata`` property (the finding of issue 14), an unknown
    element, a wrong enum value and a missing required property are all refused by the 1.5 schema."""
    good = {"type": "AdaptiveCard", "version": "1.5", "body": [{"type": "TextBlock", "text": "x"}]}
    assert schema_errors(good) == []
    metadata = dict(good, metadata={"webUrl": "https://example.test"})
    unknown = dict(good, body=[{"type": "Badge", "text": "x"}])
    weight = dict(good, body=[{"type": "TextBlock", "text": "x", "weight": "heavy"}])
    no_url = dict(good, actions=[{"type": "Action.OpenUrl", "title": "x"}])  # url is required
    for card in (metadata, unknown, weight, no_url):
        assert schema_errors(card), card
    schema = json.loads((SCHEMA_DATA / "adaptive-cards" / "1.5.0" / "adaptive-card.json").read_text())
    assert "Action.Execute" in schema["definitions"] and "Table" in schema["definitions"]
    assert (SCHEMA_DATA / "adaptive-cards" / "LICENSE").read_text().startswith("MIT License")


def test_ticket_and_faq_cards_declare_1_5_and_validate(store: SqliteTicketStore) -> None:
    for ticket in tickets_in_every_status(store):
        card = cards.ticket_card(ticket, T0 + dt.timedelta(hours=3))
        assert "metadata" not in card
        validate_card(card)
    from bot.faq import FaqDoc

    draft = FaqDoc(
        doc_id="faq-t-000001",
        path=Path("faq/faq-t-000001.md"),
        number="FAQ-T-000001",
        title="Tarif PPh 23 jasa angkutan",
        status="draft",
        owner="tax.lead@sinarnusantara.co.id",
        approved_by=None,
        effective_from=None,
        effective_to=None,
        review_by=dt.date(2026, 9, 1),
        access=("internal",),
        language="id",
        question="Berapa tarif PPh 23 atas jasa angkutan?",
        answer="2% dari jumlah bruto.",
        sources=("UU 36/2008 Pasal 23 ayat (1)",),
    )
    approved = dataclasses.replace(draft, status="approved", approved_by="tax.lead@sinarnusantara.co.id")
    for doc in (draft, approved):
        card = cards.faq_card(doc)
        validate_card(card)
    assert cards.verbs_of(cards.faq_card(draft)) == [cards.APPROVE_FAQ]


def test_answer_cards_for_the_representative_set_validate() -> None:
    reply = restricted()
    assert reply.private_answer is not None
    samples = {
        "short": cards.answer_card(vat_answer(), reference="R1"),
        "long": cards.answer_card(long(), reference="R2"),
        "conflicting": cards.answer_card(conflicting(), reference="R3"),
        "withheld": cards.answer_card(withheld(), reference="R4"),
        "restricted": cards.answer_card(reply.answer, reference="R5", restricted=True),
        "private": cards.answer_card(reply.private_answer, reference="R5", private=True),
        "refused": cards.answer_card(vat_answer(status="refused", answer="", claims=[]), reference="R6"),
    }
    for name, card in samples.items():
        validate_card(card)
        assert card["fallbackText"], name
    # a refusal has no claims to be confident about: its footer names no confidence band
    bands = [S.answer_text(f"band.{b}", "id") for b in ("high", "medium", "low")]
    refused_text = json.dumps(samples["refused"], ensure_ascii=False)
    assert not any(S.answer_text("confidence", "id", band=b) in refused_text for b in bands)
    short_text = json.dumps(samples["short"], ensure_ascii=False)
    assert any(S.answer_text("confidence", "id", band=b) in short_text for b in bands)


def test_answer_card_shows_each_claim_quote_citation_and_conflict_in_words() -> None:
    card = cards.answer_card(conflicting(), reference="R3")
    texts = cards.texts_of(card)
    assert texts[0] == "Tarif PPN sejak 1 April 2022 adalah 11%."
    assert "**[1]** Tarif PPN sebesar 11% berlaku mulai 1 April 2022." in texts
    assert (
        "\u201ca. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;\u201d" in texts
    )
    assert (
        "Regulation \u00b7 [UU 7/2021 Pasal 7 ayat (1)](https://peraturan.go.id/id/uu-no-7-tahun-2021)"
        in texts
    )
    assert (
        "- UU 7/2021 Pasal 7 ayat (1) (11%) and PMK 99/2010 Pasal 2 (10%) give different figures. "
        "**UU 7/2021** applies because it took effect later."
    ) in texts
    joined = "\n".join(texts)
    assert joined.count("sebesar 11% (sebelas persen)") == 1 and "decided_by" not in joined
    assert "\u26a0 The text of PMK 99/2010 comes from OCR" in joined


def test_withheld_reasons_in_words_and_actions_carry_the_answer_reference() -> None:
    card = cards.answer_card(withheld(), reference="R4")
    joined = "\n".join(cards.texts_of(card))
    assert "Angka 12% tidak ada dalam kutipan." in joined and "figure_not_in_quote" not in joined
    assert "T-000042" in joined
    verbs = [a.get("verb") for a in card["actions"]]
    assert verbs == [cards.FEEDBACK, None]  # a ticket exists: no "Ask the tax team"
    data = card["actions"][0]["data"]
    assert data == {
        "dasar": 1,
        "verb": "answer_feedback",
        "ref": "R4",
        "s": "answered",
        "b": "low",
        "c": "c0ffee12",
        "l": "id",
        "v": "helpful",
    }
    wrong = card["actions"][1]["card"]
    assert wrong["body"][0]["id"] == cards.IN_COMMENT
    assert wrong["actions"][0]["data"]["v"] == "not_helpful"
    fresh = cards.answer_card(vat_answer(), reference="R1")
    assert [a.get("verb") for a in fresh["actions"]][-1] == cards.ASK_TAX_TEAM


def test_restricted_and_private_cards() -> None:
    reply: Reply = restricted()
    public = cards.answer_card(reply.answer, reference="R5", restricted=True)
    assert S.answer_text("private_offer", "id") in cards.texts_of(public)
    assert "MEMO-TAX" not in json.dumps(public)
    assert reply.private_answer is not None
    private = cards.answer_card(reply.private_answer, reference="R5", private=True)
    assert cards.texts_of(private)[0] == "Jawaban lengkap (hanya untuk Anda)"
    assert "MEMO-TAX-2024-07 Bagian 2" in json.dumps(private) and "actions" not in private


def test_card_size_is_capped_by_dropping_trailing_claims_with_a_note() -> None:
    huge = vat_answer(
        claims=[
            dict(vat_answer()["claims"][0], text=f"Klaim {i}", quote="kutipan panjang " * 90)
            for i in range(80)
        ]
    )
    card = cards.answer_card(huge, reference="R")
    size = len(json.dumps(card, ensure_ascii=False, separators=(",", ":")).encode())
    assert size <= cards.MAX_CARD_BYTES
    texts = cards.texts_of(card)
    shown = [x for x in texts if x.startswith("**[")]
    assert 0 < len(shown) < 80 and shown[0].startswith("**[1]** Klaim 0")
    assert S.answer_text("omitted", "id", n=80 - len(shown)) in texts
    validate_card(card)


def test_activity_has_ai_label_and_citations_referenced_in_text() -> None:
    activity = cards.answer_activity(conflicting(), reference="R3")
    (entity,) = activity["entities"]
    assert entity["additionalType"] == ["AIGeneratedContent"]
    assert (entity["type"], entity["@type"], entity["@context"]) == (
        "https://schema.org/Message",
        "Message",
        "https://schema.org",
    )
    positions = [c["position"] for c in entity["citation"]]
    assert positions == [1, 2]
    for citation in entity["citation"]:
        assert f"[{citation['position']}]" in activity["text"]
        appearance = citation["appearance"]
        assert appearance["@type"] == "DigitalDocument" and citation["@type"] == "Claim"
        assert len(appearance["name"]) <= 80 and len(appearance["abstract"]) <= 160
        assert len(appearance["keywords"]) <= 3 and all(len(k) <= 28 for k in appearance["keywords"])
    assert entity["citation"][0]["appearance"]["url"] == "https://peraturan.go.id/id/uu-no-7-tahun-2021"
    assert activity["attachments"][0]["contentType"] == cards.CARD_CONTENT_TYPE
    validate_card(activity["attachments"][0]["content"])


def test_mentions_are_stripped_and_untrusted_links_neutralised() -> None:
    assert S.strip_mentions("<at>dasar</at> berapa tarif PPN?") == "berapa tarif PPN?"
    assert S.strip_mentions('<at id="0">dasar</at>&nbsp;<AT>Bot</AT> hi') == "hi"
    answer = vat_answer(answer="Lihat [ini](javascript:alert(1)) dan [UU](https://x.go.id) <at>dasar</at>")
    text = cards.texts_of(cards.answer_card(answer, reference="R"))[0]
    assert "javascript" not in text and "[UU](https://x.go.id)" in text and "<at>" not in text


def test_feedback_and_ask_the_tax_team_actions(store: SqliteTicketStore) -> None:
    card = cards.answer_card(vat_answer(), reference="R1")
    wrong_data = dict(
        card["actions"][1]["card"]["actions"][0]["data"], **{cards.IN_COMMENT: "tarifnya salah"}
    )
    action = parse_action(wrong_data, verb=cards.FEEDBACK)
    assert (action.ref, action.answer["v"], action.inputs[cards.IN_COMMENT]) == (
        "R1",
        "not_helpful",
        "tarifnya salah",
    )
    handler = ActionHandler(store, clock=lambda: T0, mask=lambda text: text.upper())
    outcome = handler.handle(principal(), action)
    assert outcome.ok and outcome.message == "Terima kasih atas masukannya."
    (row,) = store.list_feedback()
    assert (row.answer_ref, row.platform, row.verdict, row.comment_masked, row.confidence_band) == (
        "R1",
        "teams",
        "not_helpful",
        "TARIFNYA SALAH",
        "high",
    )
    ask = parse_action(card["actions"][2]["fallback"]["data"])  # the Action.Submit fallback path
    assert not handler.handle(principal(), ask).ok
    calls: list[str] = []
    wired = ActionHandler(
        store, clock=lambda: T0, escalate=lambda p, a: calls.append(str(a.ref)) or "T-000001"
    )
    assert wired.handle(principal(), ask).message == "T-000001" and calls == ["R1"]
    with pytest.raises(Exception, match="answer reference"):
        parse_action({"dasar": 1, "verb": cards.FEEDBACK, "v": "helpful"})


def test_teams_package_builds_and_validates(tmp_path: Path) -> None:
    out, with_schema = teams_package.build_package(
        "11111111-2222-3333-4444-555555555555", tmp_path / "app.zip"
    )
    with zipfile.ZipFile(out) as zf:
        assert sorted(zf.namelist()) == ["color.png", "manifest.json", "outline.png"]
        manifest = json.loads(zf.read("manifest.json"))
        assert teams_package.png_info(zf.read("color.png"))[:2] == (192, 192)
        assert teams_package.png_info(zf.read("outline.png"))[:2] == (32, 32)
    assert manifest["id"] == manifest["bots"][0]["botId"] == "11111111-2222-3333-4444-555555555555"
    assert with_schema  # validated against the Teams manifest schema of its manifestVersion
    schema = teams_package.find_schema(f"teams/v{manifest['manifestVersion']}/MicrosoftTeams.schema.json")
    assert schema is not None
    assert json.loads(schema.read_text())["properties"]["manifestVersion"]["const"] == "1.17"
    assert teams_package.validate(manifest) == []
    assert teams_package.check_schema(manifest, schema) == []
    bad = dict(manifest, id="not-a-guid", accentColor="blue")
    problems = teams_package.validate(bad, schema=None)
    assert any("id must be a GUID" in p for p in problems) and any("accentColor" in p for p in problems)
    assert any(p.startswith("schema: id") for p in problems)
    assert any(
        p.startswith("schema: (root)") for p in teams_package.check_schema(dict(manifest, x=1), schema)
    )
    with pytest.raises(ValueError, match="GUID"):
        teams_package.build_package("x", tmp_path / "bad.zip")


def test_icons_are_reproducible_from_the_script() -> None:
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "infra" / "teams" / "make_icons.py")
    assert spec is not None and spec.loader is not None
    make_icons = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_icons)
    assert make_icons.main(["--check"]) == 0
    pixels = teams_package.png_rgba((ROOT / "infra" / "teams" / "outline.png").read_bytes())
    assert {p[:3] for p in pixels} == {(255, 255, 255)} and {p[3] for p in pixels} >= {0, 255}
    assert re.match(
        r"^#[0-9A-F]{6}$", json.loads((ROOT / "infra" / "teams" / "manifest.json").read_text())["accentColor"]
    )


def test_bot_activity_keeps_ai_label_citations_and_card_through_botbuilder() -> None:
    activity = cards.answer_activity(vat_answer(), reference="R1")
    wire = cards.to_bot_activity(activity).serialize()
    assert wire["type"] == "message" and wire["text"] == activity["text"]
    assert wire["entities"] == activity["entities"]
    assert wire["attachments"][0]["content"] == activity["attachments"][0]["content"]


def test_relay_header_and_footer_compose_the_relay_template() -> None:
    assert S.RELAY_ANSWER == S.RELAY_ANSWER_HEADER + "\n{text}\n\n" + S.RELAY_ANSWER_FOOTER


def test_an_extractive_claim_shows_its_lead_in_and_its_quote_once() -> None:
    dumped = json.dumps(cards.answer_card(lead_in_answer(), reference="R1"))
    assert dumped.count("paling sedikit 40% (empat puluh persen)") == 1
    assert "Wajib Pajak badan dalam negeri:" in dumped
