"""Amounts and percentages as one search token, however they are written.

An act states a threshold as "Rp4.800.000.000,00 (empat miliar delapan ratus juta rupiah)" and a rate as
"0,5% (nol koma lima persen)"; a message writes "4,8 M", "4,8 miliar", "Rp 4.8 billion", "500jt",
"Rp50.000.000" or "0.5 persen".  The index splits "Rp4.800.000.000,00" into "rp4", "800", "000", ... and the
message's "4,8" into "4", "8", so the exact figure a user names is no search match.  Both sides are read
here to one canonical token: :func:`amount_token` ("amt4800000000") for a Rupiah amount and
:func:`percent_token` ("pct0p5") for a percentage with a fraction ("11%" is one index token already, so a
whole percentage needs none; a message's "11 persen" searches "11%").

* **passages** (:func:`passage_tokens`): an amount with its currency ("Rp", "IDR") or a formal scale word
  ("4,8 miliar"), and a percentage with a fraction.  Not indexed today: appending these tokens to the
  indexed text (measured in session 30, commit "Amounts as one search token") found the threshold
  provision a chat amount names, but moved blind-set answers at the margins, so the search does not use
  them yet; the answer's figure match reads a message's chat amounts (:func:`spelled_formally`).
* **messages** (:func:`message_figures`): the same, plus the chat scales ("jt", "rb", "k", "M", "B",
  "billion"; kb/data/lexicon.yaml ``amounts.scales``), a bare amount needing a currency or a scale word.
  "M" is "miliar" in Indonesian chat; an English message reads it as "million" too (both tokens are kept:
  only a passage stating exactly that amount could match either).

Numbers: a separator followed by exactly three digits groups thousands ("Rp50.000.000", "IDR 500,000,000",
"1.500 juta"); when both "." and "," occur the last one is the decimal mark ("4.800.000.000,00"); any other
separator is a decimal mark ("4,8", "4.8", "0,5").  Deterministic and pure; the word lists live in the
lexicon.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from kb import lexicon

#: a written number: digits with "." / "," separators between digit groups
_NUM = r"\d+(?:[.,]\d+)*"
_SEP = re.compile(r"[.,]")


@dataclass(frozen=True)
class Figure:
    """One amount or percentage found in a text: ``token`` is its search token(s), ``value`` the number."""

    surface: str
    kind: str  # "amount" or "percent"
    value: Decimal
    tokens: tuple[str, ...]
    start: int
    end: int


def parse_number(num: str) -> Decimal | None:
    """The value of a written number (module docstring for the separator rule); None when malformed."""
    seps = [c for c in num if c in ".,"]
    try:
        if not seps:
            return Decimal(num)
        if "." in seps and "," in seps:
            dec = max(num.rfind("."), num.rfind(","))
            head, tail = num[:dec], num[dec + 1 :]
            groups = re.split(r"[.,]", head)
            if any(len(g) != 3 for g in groups[1:]) or len(set(c for c in head if c in ".,")) != 1:
                return None
            return Decimal("".join(groups) + "." + tail)
        groups = num.split(seps[0])
        if len(groups) > 2 or (len(groups[1]) == 3 and groups[0].lstrip("0")):
            if any(len(g) != 3 for g in groups[1:]):
                return None
            return Decimal("".join(groups))
        return Decimal(f"{groups[0]}.{groups[1]}")
    except InvalidOperation:
        return None


def amount_token(value: Decimal) -> str | None:
    """The token "amt4800000000" of a whole amount; None for a fraction of a rupiah (no act states one)."""
    if value <= 0 or value != value.to_integral_value():
        return None
    return f"amt{int(value)}"


def percent_token(value: Decimal) -> str:
    """The token "pct0p5" of 0,5%; a whole percentage is its index token ("11%")."""
    if value == value.to_integral_value():
        return f"{int(value)}%"
    return "pct" + format(value.normalize(), "f").replace(".", "p")


@functools.lru_cache(maxsize=4)
def _patterns(register: str) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, tuple[int, ...]]]:
    """(amount pattern, percent pattern, scale word -> powers of ten) for ``register``: "formal"
    (an act), "id" or "en" (a message in that language)."""
    lex = lexicon.default()
    scales: dict[str, tuple[int, ...]] = {}
    registers = ("formal",) if register == "formal" else ("formal", "chat")
    for name in registers:
        for word, power in lex.amount_scales.get(name, {}).items():
            scales[word] = (power,)
    if register == "en":
        for word, power in lex.amount_scales.get("english", {}).items():
            scales[word] = tuple(dict.fromkeys((*scales.get(word, ()), power)))

    def alt(words: Iterable[str]) -> str:
        """The words as one alternation, longest first (so "miliar" wins over "m")."""
        return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))

    currency = alt(lex.amount_currency) or "(?!)"
    scale = alt(scales) or "(?!)"
    amount = re.compile(
        rf"(?<![\w.,])(?:(?P<cur>{currency})\.?\s*)?(?P<num>{_NUM})(?:\s*(?P<scale>{scale})(?![\w]))?",
        re.IGNORECASE,
    )
    words = alt(lex.percent_words)
    percent = re.compile(
        rf"(?<![\w.,])(?P<num>{_NUM})\s*(?:%|(?:{words})\b)" if words else rf"(?<![\w.,])(?P<num>{_NUM})\s*%",
        re.IGNORECASE,
    )
    return amount, percent, scales


def _figures(text: str, register: str) -> list[Figure]:
    amount, percent, scales = _patterns(register)
    out: list[Figure] = []
    taken: list[tuple[int, int]] = []
    for m in percent.finditer(text):
        value = parse_number(m["num"])
        if value is not None:
            out.append(Figure(m.group(0), "percent", value, (percent_token(value),), m.start(), m.end()))
            taken.append((m.start(), m.end()))
    for m in amount.finditer(text):
        if not (m["cur"] or m["scale"]) or any(a < m.end() and m.start() < b for a, b in taken):
            continue
        # a lone letter after a whole number counts only glued on ("15k", "500M"): "Pasal 21 b" is a huruf
        spaced = m["scale"] and text[m.end("num") : m.start("scale")]
        if spaced and len(m["scale"]) == 1 and not m["cur"] and not _SEP.search(m["num"]):
            continue
        value = parse_number(m["num"])
        if value is None:
            continue
        powers = scales[m["scale"].lower()] if m["scale"] else (0,)
        tokens = tuple(t for p in powers if (t := amount_token(value * 10**p)))
        if tokens:
            out.append(Figure(m.group(0), "amount", value * 10 ** powers[0], tokens, m.start(), m.end()))
    return sorted(out, key=lambda f: f.start)


def passage_tokens(text: str) -> list[str]:
    """The search tokens of an act's amounts and fractional percentages, in order, each once."""
    tokens = (t for f in _figures(text, "formal") for t in f.tokens)
    return list(dict.fromkeys(t for t in tokens if not t.endswith("%")))


def message_figures(text: str, language: str = "id") -> list[Figure]:
    """The amounts and percentages a message writes, chat forms included, in order."""
    return _figures(text, "en" if language == "en" else "id")


def spelled_formally(text: str, language: str = "id") -> str:
    """``text`` with every amount it writes spelled as an act does ("4,8 M" -> "Rp4.800.000.000"), for readers
    that know only the formal scales (the answer's figure match); percentages and other text unchanged."""
    out, last = [], 0
    for f in message_figures(text, language):
        if f.kind == "amount" and f.value == f.value.to_integral_value():
            out += [text[last : f.start], "Rp" + f"{int(f.value):,}".replace(",", ".")]
            last = f.end
    return "".join(out) + text[last:]
