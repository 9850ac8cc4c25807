"""Checksum and structure validators for Indonesian identifiers.

Why: a bare 15/16-digit run is far too common in tax text (invoice numbers, amounts without separators,
document ids) to mask on shape alone. Each validator below encodes the public structure of the identifier
so that only plausible identifiers are masked, and structurally impossible ones (unknown province, 30
February, bad Luhn digit) are left alone. Formats follow python-stdnum (``stdnum/id/nik.py``,
``stdnum/id/npwp.py``) and the reference note in ``eval/pii/indonesian_pii_reference.json``.

Validators take the matched text (separators included) and return ``True`` (mask with full confidence),
``False`` (drop the match) -- the contract of presidio's ``PatternRecognizer.validate_result``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

#: Province codes (Kemendagri) that can open a NIK. 91-96 cover Papua and the provinces split from it
#: in 2022; anything else (00-10, 20, 99, ...) cannot be a NIK.
NIK_PROVINCES: frozenset[int] = frozenset(
    {11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 31, 32, 33, 34, 35, 36, 51, 52, 53, 61, 62, 63, 64, 65}
    | {71, 72, 73, 74, 75, 76, 81, 82, 91, 92, 93, 94, 95, 96}
)

_NON_DIGIT = re.compile(r"\D")


def digits_of(text: str) -> str:
    """Return only the ASCII digits of ``text`` (separators such as ``.``, ``-`` and spaces dropped)."""
    return _NON_DIGIT.sub("", text)


def luhn_ok(digits: str) -> bool:
    """Return whether ``digits`` passes the Luhn (mod 10) check, the NPWP check-digit scheme."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def nik_birth_date(digits: str) -> datetime.date | None:
    """Decode the DDMMYY birth date of a 16-digit NIK (women have 40 added to the day).

    Returns ``None`` when no real date matches in either 19YY or 20YY, like python-stdnum.
    """
    day = int(digits[6:8])
    if day > 40:
        day -= 40
    month = int(digits[8:10])
    year = int(digits[10:12])
    for century in (1900, 2000):
        try:
            return datetime.date(century + year, month, day)
        except ValueError:
            continue
    return None


def is_valid_nik(text: str) -> bool:
    """Return whether ``text`` is a structurally valid NIK (16 digits).

    Checks province code, non-zero regency and sub-district, a real birth date and a non-zero serial.
    The 16-digit NPWP of a resident individual *is* their NIK, so this also covers those NPWPs.
    """
    digits = digits_of(text)
    if len(digits) != 16:
        return False
    if int(digits[0:2]) not in NIK_PROVINCES:
        return False
    if digits[2:4] == "00" or digits[4:6] == "00" or digits[12:16] == "0000":
        return False
    return nik_birth_date(digits) is not None


def is_valid_npwp15(text: str) -> bool:
    """Return whether ``text`` is a legacy 15-digit NPWP (Luhn over the first 9 digits)."""
    digits = digits_of(text)
    return len(digits) == 15 and luhn_ok(digits[:9])


def is_valid_npwp16(text: str) -> bool:
    """Return whether ``text`` is a 16-digit NPWP of a non-individual: ``0`` + legacy 15 digits.

    A 16-digit value that does not start with 0 is a NIK (see :func:`is_valid_nik`).
    """
    digits = digits_of(text)
    return len(digits) == 16 and digits[0] == "0" and luhn_ok(digits[:10])


def is_valid_npwp(text: str) -> bool:
    """Return whether ``text`` is any NPWP form we label ``ID_NPWP``: legacy 15 or 0-prefixed 16 digits."""
    return is_valid_npwp15(text) or is_valid_npwp16(text)


def is_npwp_formatted(text: str) -> bool:
    """Return whether ``text`` carries the printed NPWP layout ``99.999.999.9-999.999``.

    Policy: a value typed in the official dotted layout is masked even when its check digit is wrong --
    the layout alone says "this is someone's tax id", and a typo does not make it less personal.
    """
    return len(digits_of(text)) == 15 and bool(re.search(r"\d{2}\s*\.\s*\d{3}\s*\.\s*\d{3}", text))


def is_valid_npwp_or_formatted(text: str) -> bool:
    """Validator for the NPWP recognizer: checksum-valid, or typed in the official dotted layout."""
    return is_valid_npwp(text) or is_npwp_formatted(text)


def is_valid_nitku(text: str) -> bool:
    """Return whether ``text`` is a NITKU: a 16-digit NPWP/NIK and a 6-digit place-of-business code."""
    digits = digits_of(text)
    if len(digits) != 22:
        return False
    head = digits[:16]
    return is_valid_npwp16(head) or is_valid_nik(head)


def is_valid_id_phone(text: str) -> bool:
    """Return whether ``text`` is a plausible Indonesian phone number.

    Mobile numbers: national significant number ``8xx...`` of 9-12 digits. Landlines: area code starting
    2-7 or 9, 8-11 digits in all; only accepted when written with ``+62``/``62`` or a parenthesised area
    code, because a bare ``0xx xxxxxxx`` is too easy to confuse with other numbers.
    """
    stripped = text.strip()
    digits = digits_of(stripped)
    international = stripped.startswith("+62") or (
        stripped.startswith("62") and not stripped.startswith("620")
    )
    if international:
        national = digits[2:]
        if national.startswith("0"):
            national = national[1:]
    elif digits.startswith("0"):
        national = digits[1:]
    else:
        return False
    if national.startswith("8"):
        return 9 <= len(national) <= 12 and national[1] != "0"
    has_area_marker = international or stripped.startswith("(")
    return has_area_marker and national[:1] in "234679" and 8 <= len(national) <= 11


def is_valid_bank_account(text: str) -> bool:
    """Return whether ``text`` is a plausible bank account number (7-18 digits, not all the same digit).

    The recognizer only fires next to account words (rekening, no. rek, a.n., account), so this check
    stays deliberately loose: Indonesian banks use 10-16 digits, some older ones fewer.
    """
    digits = digits_of(text)
    return 7 <= len(digits) <= 18 and len(set(digits)) > 1


#: Card brands: (name, IIN ranges as (low, high) prefixes of equal length, allowed total lengths). Public
#: issuer ranges (ISO/IEC 7812 registrations as published by the networks); a number is a card when it
#: passes Luhn and falls in one brand's range with one of that brand's lengths.
CARD_BRANDS: tuple[tuple[str, tuple[tuple[str, str], ...], frozenset[int]], ...] = (
    ("visa", (("4", "4"),), frozenset({13, 16, 19})),
    ("mastercard", (("51", "55"), ("2221", "2720")), frozenset({16})),
    ("amex", (("34", "34"), ("37", "37")), frozenset({15})),
    ("jcb", (("3528", "3589"),), frozenset(range(16, 20))),
    ("diners", (("300", "305"), ("3095", "3095"), ("36", "36"), ("38", "39")), frozenset(range(14, 20))),
    ("discover", (("6011", "6011"), ("644", "649"), ("65", "65")), frozenset(range(16, 20))),
    ("unionpay", (("62", "62"), ("81", "81")), frozenset(range(16, 20))),
    ("maestro", (("50", "50"), ("56", "69"), ("5018", "5018")), frozenset(range(12, 20))),
    ("mir", (("2200", "2204"),), frozenset(range(16, 20))),
    ("uatp", (("1", "1"),), frozenset({15})),
)


def card_brand(text: str) -> str | None:
    """Return the brand of a Luhn-valid card number in ``text`` (separators ignored), else ``None``."""
    digits = digits_of(text)
    if not 12 <= len(digits) <= 19 or len(set(digits)) == 1 or not luhn_ok(digits):
        return None
    for brand, ranges, lengths in CARD_BRANDS:
        if len(digits) in lengths and any(low <= digits[: len(low)] <= high for low, high in ranges):
            return brand
    return None


def is_valid_card(text: str) -> bool:
    """Validator for the card recognizer: a Luhn-valid number of a known brand and length."""
    return card_brand(text) is not None


#: Validator names usable in ``recognizers.yaml`` -> function. Keeping the table closed means a typo in
#: the data file fails at load time instead of silently disabling validation.
VALIDATORS: dict[str, Callable[[str], bool]] = {
    "nik": is_valid_nik,
    "npwp": is_valid_npwp_or_formatted,
    "nitku": is_valid_nitku,
    "id_phone": is_valid_id_phone,
    "bank_account": is_valid_bank_account,
    "card": is_valid_card,
}
