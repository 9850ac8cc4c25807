"""Cards of every brand and length, phone numbers of our trading regions and +E.164, IBAN in any case.

Card numbers are the networks' published test numbers or built here with a Luhn check digit; phone numbers
use the regions' documented fictional or sample ranges. Each row states the exact span and type expected.
"""

from __future__ import annotations

import pytest

from guardrails.pii import MaskingSession, detect, mask
from guardrails.pii.validators import card_brand, luhn_ok


def spans(text: str) -> list[tuple[str, str]]:
    return [(e.type, text[e.start : e.end]) for e in detect(text)]


def with_check_digit(prefix: str, length: int) -> str:
    """Pad ``prefix`` with zeros to ``length - 1`` digits and append the Luhn check digit."""
    body = prefix.ljust(length - 1, "0")
    return next(body + d for d in "0123456789" if luhn_ok(body + d))


CARDS = [
    ("visa", with_check_digit("4", 13)),
    ("visa", "4111111111111111"),
    ("visa", with_check_digit("4929", 19)),
    ("mastercard", "5555555555554444"),
    ("mastercard", "2223000048400011"),
    ("mastercard", with_check_digit("2720", 16)),
    ("amex", "378282246310005"),
    ("jcb", "3530111333300000"),
    ("jcb", with_check_digit("3589", 19)),
    ("diners", "30569309025904"),
    ("diners", with_check_digit("36", 14)),
    ("discover", "6011111111111117"),
    ("discover", with_check_digit("65", 19)),
    ("unionpay", with_check_digit("62", 17)),
    ("maestro", with_check_digit("5018", 12)),
    ("maestro", "6759649826438453"),
    ("maestro", with_check_digit("6763", 19)),
]


@pytest.mark.parametrize(("brand", "number"), CARDS)
def test_every_card_brand_and_length_is_masked(brand: str, number: str) -> None:
    assert card_brand(number) == brand
    text = f"tolong bayar pakai kartu {number} ya"
    assert spans(text) == [("CREDIT_CARD", number)]


def test_grouped_card_numbers_are_masked_whole() -> None:
    assert spans("card 4111 1111 1111 1111 exp 12/27") == [("CREDIT_CARD", "4111 1111 1111 1111")]
    assert spans("kartu 3782-822463-10005") == [("CREDIT_CARD", "3782-822463-10005")]


def test_luhn_invalid_or_brandless_numbers_are_not_cards() -> None:
    assert card_brand("4111111111111112") is None  # Luhn fails
    assert card_brand(with_check_digit("9", 16)) is None  # no brand starts with 9
    assert card_brand("4444444444444448") is not None
    assert card_brand("0000000000000000") is None


PHONES = [
    ("Singapore office +65 6123 4567", "+65 6123 4567"),
    ("Kuala Lumpur +60 3-2123 4567", "+60 3-2123 4567"),
    ("Sydney (02) 9374 4000", "(02) 9374 4000"),
    ("Shanghai mobile 138 1234 5678", "138 1234 5678"),
    ("Tokyo 03-1234-5678", "03-1234-5678"),
    ("New York (212) 555-0198", "(212) 555-0198"),
    ("London 020 7946 0958", "020 7946 0958"),
    ("Berlin +49 30 901820", "+49 30 901820"),
    ("Paris 01 42 68 53 00", "01 42 68 53 00"),
    ("Amsterdam 020 123 4567", "020 123 4567"),
    ("Cape Town +27 21 123 4567", "+27 21 123 4567"),
    ("Jakarta 0812-3456-7890", "0812-3456-7890"),
    ("Singapore desk 6123 4567", "6123 4567"),
    ("Shenzhen 13812345678", "13812345678"),
]


@pytest.mark.parametrize(("text", "number"), PHONES)
def test_international_phone_numbers_are_masked(text: str, number: str) -> None:
    assert spans(text) == [("PHONE_NUMBER", number)]


UNTOUCHED = [
    "PPh Pasal 21 tahun 2024 atas gaji Rp15.000.000 dibayar tanggal 10-01-2025",
    "Faktur 010.000-23.12345678 sesuai PMK-168/PMK.010/2023",
    "omzet 4800000000 setahun dan SKP 00012/201/23/091/24",
    "jatuh tempo 30-06-2025, lapor 2025-07-20",
    "dibayar SGD 61234567 dan Rp 13812345678",
    "laba 15000000000 dan biaya 61234567 dicatat",
    "tarif 13812345678 persen",
]


@pytest.mark.parametrize("text", UNTOUCHED)
def test_tax_figures_are_not_phones_or_cards(text: str) -> None:
    assert spans(text) == []


def test_iban_in_any_case() -> None:
    assert spans("IBAN DE89 3704 0044 0532 0130 00") == [("IBAN_CODE", "DE89 3704 0044 0532 0130 00")]
    assert spans("iban de89370400440532013000 ya") == [("IBAN_CODE", "de89370400440532013000")]
    assert spans("rek gb82 west 1234 5698 7654 32") == [("IBAN_CODE", "gb82 west 1234 5698 7654 32")]
    # a lower-case word after an upper-case IBAN is not part of it
    assert spans("IBAN DE89 3704 0044 0532 0130 00 failed") == [("IBAN_CODE", "DE89 3704 0044 0532 0130 00")]
    assert spans("iban de89370400440532013001") == []  # mod-97 fails


def test_same_iban_in_two_cases_shares_a_placeholder() -> None:
    session = MaskingSession()
    masked, _ = mask("DE89370400440532013000 dan de89370400440532013000", session)
    assert masked == "<IBAN_1> dan <IBAN_1>"
