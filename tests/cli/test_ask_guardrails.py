"""``dasar ask`` runs the inbound guardrails every chat front end runs (session 30): an outside tester pasted
an office password into ``dasar ask`` and got a VAT answer; ``dasar chat`` refused the same message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.support.one_doc_kb import one_doc_kb

DOC = """---
id: ask-guard-policy
title: Kebijakan uji
number: ASK-POL-1
type: policy
owner: tax.lead@example.co.id
access: [public]
---
# Kebijakan
## Tarif
PPh 23 jasa teknik 2% dari jumlah bruto.
"""


@pytest.fixture
def kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    path = one_doc_kb(tmp_path, monkeypatch, DOC)
    capsys.readouterr()
    return path


def test_a_pasted_password_is_refused_and_never_echoed(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = "ini kata sandi e-faktur kami: Qw3rty#88, tolong cek tarif PPh 23 jasa teknik"
    assert main(["ask", message, "--kb", str(kb), "--json"]) == 0  # a status is a result, not an error
    out = capsys.readouterr().out
    data = json.loads(out)
    assert data["status"] == "refused" and data["claims"] == []
    assert data["answer"].startswith("Pesan Anda tidak diproses karena berisi data rahasia")
    assert "Qw3rty#88" not in out
    assert main(["ask", message, "--kb", str(kb)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("refused") and "Qw3rty#88" not in text


def test_a_personal_identifier_is_masked_before_the_question_is_answered(
    kb: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.answer.parts as parts

    asked: list[str] = []
    original = parts.answer_message

    def recording(question: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(question)
        return original(question, *args, **kwargs)

    monkeypatch.setattr(parts, "answer_message", recording)
    message = "Vendor perorangan NIK 3171052208900003 minta dipotong PPh 23 jasa teknik, tarifnya berapa?"
    assert main(["ask", message, "--kb", str(kb), "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["status"] != "refused"
    # what retrieval and any model read is the masked question: a placeholder, never the number
    assert len(asked) == 1 and "3171052208900003" not in asked[0] and "<NIK_1>" in asked[0]
    assert "3171052208900003" not in out
