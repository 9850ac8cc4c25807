"""Secrets are refused (kinds reported, value never echoed), including through inbound.inspect."""

from __future__ import annotations

import json

import pytest

from guardrails.inbound import inspect
from guardrails.pii import MaskingSession
from guardrails.secrets import scan_secrets, shannon_entropy

SECRETS = [
    ("password: Hunter22", "Hunter22", "password"),
    ("pwd=abc123!x", "abc123!x", "password"),
    ("kata sandi saya Rahasia123!", "Rahasia123!", "password"),
    ("kata sandi saya adalah kucingmanis", "kucingmanis", "password"),
    ("CVV kartu saya 123", "123", "card_cvv"),
    ("aws key AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "aws_access_key"),
    (
        'aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_key",
    ),
    (
        "bot token xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-123456789012",
        "slack_token",
    ),
    ("app token xapp-1-A0123456789-1234567890123-abcdef0123456789", "xapp-1-A0123456789", "slack_token"),
    (
        "client secret abc8Q~abcdefghijklmnopqrstuvwxyz0123456",
        "abc8Q~abcdefghijklmnopqrstuvwxyz0123456",
        "azure_client_secret",
    ),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END",
        "b3BlbnNzaC1rZXktdjEAAAAA",
        "private_key",
    ),
    (
        "My github token is: 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",
        "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",
        "github_token",
    ),
    ("api_key=sk9f8s7d6f5g4h3j2k1l", "sk9f8s7d6f5g4h3j2k1l", "api_key"),
    ("the token is Zx8kQ2pLm9Vr4tYw7NbC3dFg", "Zx8kQ2pLm9Vr4tYw7NbC3dFg", "api_key"),
    ("Use this URL: https://budi:s3cr3t@example.com", "s3cr3t", "url_credentials"),
]

NOT_SECRETS = [
    "Apa kebijakan password perusahaan?",
    "password saya sudah expired, bagaimana reset?",
    "Lupa kata sandi saya",
    "Berapa PPh atas Rp60.000.000 sesuai PMK-168/PMK.010/2023?",
    "key takeaways dari PER-6/PJ/2024 untuk token listrik",
    "NIK saya 3171234501900001",
]


@pytest.mark.parametrize(("text", "raw", "kind"), SECRETS)
def test_secret_is_refused_and_never_echoed(text: str, raw: str, kind: str) -> None:
    assert kind in scan_secrets(text).kinds
    result = inspect(text, MaskingSession())
    assert result.refused is True
    assert kind in result.refusal_kinds
    assert result.masked == ""
    payload = result.to_json()
    assert raw not in payload
    assert json.loads(payload)["refused"] is True


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_text_is_not_refused(text: str) -> None:
    assert scan_secrets(text).kinds == ()
    assert inspect(text, MaskingSession()).refused is False


def test_kinds_are_sorted_and_distinct() -> None:
    text = "AKIAIOSFODNN7EXAMPLE dan password: Hunter22 dan AKIAIOSFODNN7EXAMPLF"
    assert scan_secrets(text).kinds == ("aws_access_key", "password")


def test_refused_turn_does_not_touch_the_session() -> None:
    session = MaskingSession()
    inspect("password: Hunter22 NIK 3171234501900001", session)
    assert len(session) == 0


def test_entropy_separates_words_from_keys() -> None:
    assert shannon_entropy("aaaaaaaa") == 0.0
    assert shannon_entropy("Zx8kQ2pLm9Vr4tYw7NbC3dFg") > 4.0


NATURAL_CREDENTIALS = [
    ("username budi.santoso, password Kucing123", "password"),
    ("user: budi pass: s3cr3t!", "password"),
    ("login: siti@pt.example / pwd: Siti#2023", "password"),
    ("email budi@pt.example dan password Budi1234", "password"),
    ("kata sandi coretax saya Pajak2024!", "password"),
    ("kata sandi djponline saya adalah MerahPutih17", "password"),
    ("sandi: rahasiaku99", "password"),
    ("PIN ATM 123456", "pin"),
    ("pin kartu debit saya: 4821", "pin"),
    ("my card PIN is 7730", "pin"),
    ("OTP 482913", "otp"),
    ("kode verifikasi saya 551204", "otp"),
    ("verification code: 0042", "otp"),
]


@pytest.mark.parametrize(("text", "kind"), NATURAL_CREDENTIALS)
def test_natural_credential_phrasings_are_refused(text: str, kind: str) -> None:
    assert kind in scan_secrets(text).kinds


def test_keys_split_by_invisible_or_odd_spaces_are_refused() -> None:
    assert scan_secrets("ghp_wWPw5k4aXcaT4fNP0\u200bUcnZwJUVFk6LO0\u2060pINUx").kinds == ("github_token",)
    assert scan_secrets("AKIA\u200bIOSFODNN7EXAMPLE").kinds == ("aws_access_key",)
    assert "password" in scan_secrets("password:\u00a0Hunter22").kinds
    assert "github_token" in scan_secrets("\uff47\uff48\uff50_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx").kinds


TALK_ABOUT_CREDENTIALS = [
    "What is the password policy for DJP Online?",
    "lupa kata sandi, bagaimana reset?",
    "Saya lupa kata sandi coretax, bagaimana reset?",
    "username dan password saya lupa",
    "password minimal 8 karakter",
    "Password harus diganti setiap 90 hari",
    "Berapa digit PIN ATM?",
    "Ganti PIN setiap 3 bulan",
    "PIN efin hilang, bagaimana minta ulang?",
    "OTP untuk SPT 2024 tidak masuk",
    "kode verifikasi dikirim ke 081234567890",
    "user guide e-Faktur: pass through costs",
]


@pytest.mark.parametrize("text", TALK_ABOUT_CREDENTIALS)
def test_talking_about_credentials_without_a_value_is_not_refused(text: str) -> None:
    assert scan_secrets(text).kinds == ()
