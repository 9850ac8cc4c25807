"""Build presidio recognizers from our data table plus the predefined ones we rely on.

Why data: recognizers for identifiers change when regulations change (the 2024 switch to 16-digit NPWP
is the latest example). Keeping patterns, context words and scores in ``recognizers.yaml`` and the
checksum logic in :mod:`guardrails.pii.validators` lets a reviewer see every pattern in one place and
lets tests iterate over the table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import phonenumbers
import tldextract
import yaml
from presidio_analyzer import (
    AnalysisExplanation,
    EntityRecognizer,
    Pattern,
    PatternRecognizer,
    RecognizerResult,
)
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
)

from guardrails.errors import RecognizerConfigError
from guardrails.pii.validators import VALIDATORS, digits_of

#: Placeholder labels of the presidio-provided entity types we mask.
PREDEFINED_PLACEHOLDERS: dict[str, str] = {
    "EMAIL_ADDRESS": "EMAIL",
    "CREDIT_CARD": "CARD",
    "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP",
    "PHONE_NUMBER": "PHONE",
}


@dataclass(frozen=True)
class RecognizerSpec:
    """One row of ``recognizers.yaml``, validated.

    Attributes:
        name: Recognizer name (unique).
        entity: Entity type reported to callers, e.g. ``ID_NIK``.
        placeholder: Label used in placeholders, e.g. ``NIK`` -> ``<NIK_1>``.
        validator: Key into :data:`guardrails.pii.validators.VALIDATORS`.
        patterns: ``(name, regex, score)`` triples.
        context: Context words for presidio's context enhancer.
    """

    name: str
    entity: str
    placeholder: str
    validator: str
    patterns: tuple[tuple[str, str, float], ...]
    context: tuple[str, ...]


class DataPatternRecognizer(PatternRecognizer):
    """A presidio ``PatternRecognizer`` whose ``validate_result`` is one of our named validators."""

    def __init__(self, spec: RecognizerSpec, validator: Callable[[str], bool], language: str) -> None:
        """Build the recognizer for one language from a validated spec."""
        self._validator = validator
        super().__init__(
            supported_entity=spec.entity,
            name=f"{spec.name}_{language}",
            supported_language=language,
            patterns=[Pattern(name, regex, score) for name, regex, score in spec.patterns],
            context=list(spec.context),
        )

    def validate_result(self, pattern_text: str) -> bool:
        """Keep the match only if the identifier's structure/checksum holds."""
        return self._validator(pattern_text)


@functools.cache
def _offline_tld_extractor() -> tldextract.TLDExtract:
    """Return a tldextract instance that never touches the network or the disk cache.

    ``suffix_list_urls=()`` disables fetching the public suffix list; ``cache_dir=None`` disables the
    on-disk cache; the snapshot bundled with tldextract answers every lookup.
    """
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=())


class OfflineEmailRecognizer(EmailRecognizer):
    """presidio's email recognizer, validating domains against tldextract's bundled snapshot.

    The upstream ``validate_result`` calls the module-level ``tldextract.extract``, which tries to
    download the public suffix list (slow failure plus a logged traceback without internet). We override
    only that method instead of patching tldextract globally.
    """

    def validate_result(self, pattern_text: str) -> bool:
        """Accept the match when its domain has a known public suffix."""
        return _offline_tld_extractor()(pattern_text).fqdn != ""


#: Regions whose national phone formats are recognised (a company trading with Singapore, Malaysia,
#: Australia, China, Japan, the US and the EU meets these). Numbers written with ``+`` or ``00`` and a country
#: code are recognised for every country, whatever this list holds.
PHONE_REGIONS: tuple[str, ...] = ("ID", "SG", "MY", "AU", "CN", "JP", "US", "GB", "DE", "FR", "NL")
#: Scores: an international number carries its country code and cannot be read as anything else; a
#: national number is valid for one of :data:`PHONE_REGIONS`. Both stay below 1.0 so a checksum-validated
#: identifier (NIK, NPWP, card) wins an overlap.
PHONE_SCORE_INTERNATIONAL = 0.8
PHONE_SCORE_NATIONAL = 0.6


_LENIENCY = int(phonenumbers.Leniency.VALID)
# a run of digits that could hold a phone number: optional "+" or "(", then digits with the separators
# people type; the matcher decides
_PHONE_CANDIDATE = re.compile(r"(?:\+|\()?\d[\d \t().\-/]{5,24}\d")
# what a valid-looking national number in tax text usually is instead: a date, an amount
_DATE_LIKE = re.compile(r"\d{1,2}[-/. ]\d{1,2}[-/. ](?:\d{4}|\d{2})|\d{4}[-/. ]\d{1,2}[-/. ]\d{1,2}")
_CURRENCY_BEFORE = re.compile(
    r"(?:rp|idr|usd|sgd|myr|aud|cny|rmb|jpy|eur|gbp|us\$|\$|€|£|¥)\.?\s*$", re.IGNORECASE
)
_AMOUNT_AFTER = re.compile(r"^\s*(?:%|persen|percent|rupiah|juta|miliar|ribu|dollars?)\b", re.IGNORECASE)


def plausible_national_phone(text: str, start: int, end: int) -> bool:
    """Whether a national-format match (no ``+``/``00``) reads as a phone number rather than a figure.

    Rejected: dates (``31-12-2023``), amounts (after a currency, before ``%``/``juta``/``rupiah``, or
    ending in five zeros), and bare digit runs shorter than ten digits that do not open with a trunk
    ``0`` (``60000000`` is a valid Singapore number and far more often an amount).
    """
    raw = text[start:end].strip()
    digits = digits_of(raw)
    if _DATE_LIKE.fullmatch(raw) or digits.endswith("00000"):
        return False
    if _CURRENCY_BEFORE.search(text[max(0, start - 6) : start]) or _AMOUNT_AFTER.search(text[end : end + 12]):
        return False
    return not (raw.isdigit() and len(digits) < 10 and not digits.startswith("0"))


_PHONE_RECOGNIZER_NAME = "RegionalPhoneRecognizer"


_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")
_NUMBER_OF_YEAR = re.compile(r"\d{1,5}/(?:19|20)\d\d")  # "010/2023" in a regulation number


def _worth_matching(text: str, candidate: re.Match[str]) -> bool:
    """Skip digit runs that cannot be a phone number before the per-region matchers see them."""
    raw = candidate.group(0)
    digits = sum(c.isdigit() for c in raw)
    if digits < 7 or _THOUSANDS.fullmatch(raw) or _DATE_LIKE.fullmatch(raw) or _NUMBER_OF_YEAR.fullmatch(raw):
        return False
    if raw.count(".") >= 3 or (digits > 15 and not re.search(r"\s", raw)):  # NPWP layout, NIK, NITKU
        return False
    return not _CURRENCY_BEFORE.search(text[max(0, candidate.start() - 6) : candidate.start()])


class RegionalPhoneRecognizer(PhoneRecognizer):
    """presidio's phonenumbers-based recognizer over :data:`PHONE_REGIONS`, scored for our threshold.

    presidio scores every match 0.4, under our 0.5 threshold; the matcher's VALID leniency already
    requires a number that exists in the region's numbering plan, so a match is scored by its form.
    """

    def __init__(self, supported_language: str) -> None:
        """Build the recognizer for one language (phone numbers are language-neutral)."""
        super().__init__(
            supported_language=supported_language,
            supported_regions=PHONE_REGIONS,
            leniency=_LENIENCY,
            context=[
                "phone",
                "telephone",
                "mobile",
                "call",
                "telepon",
                "telp",
                "hp",
                "ponsel",
                "wa",
                "whatsapp",
            ],
            name=_PHONE_RECOGNIZER_NAME,
        )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        """Find phone numbers valid in any supported region (or with an explicit country code).

        The matcher runs per region, so it only sees the digit runs of the text (with one character of
        context each side): eleven passes over a whole message cost ten times more.
        """
        seen: dict[tuple[int, int], RecognizerResult] = {}
        for candidate in _PHONE_CANDIDATE.finditer(text):
            if not _worth_matching(text, candidate):
                continue
            lo, hi = max(0, candidate.start() - 1), min(len(text), candidate.end() + 1)
            snippet = text[lo:hi]
            regions = self.supported_regions[:1] if candidate.group(0)[0] == "+" else self.supported_regions
            for region in regions:
                for match in phonenumbers.PhoneNumberMatcher(snippet, region, leniency=_LENIENCY):
                    self._keep(seen, text, lo + match.start, lo + match.end, region)
        return sorted(seen.values(), key=lambda r: (r.start, r.end))

    def _keep(
        self, seen: dict[tuple[int, int], RecognizerResult], text: str, start: int, end: int, region: str
    ) -> None:
        """Score one match by its form and keep it unless it reads as a date or an amount."""
        raw = text[start:end].lstrip()
        international = raw.startswith("+") or raw.startswith("00")
        if not international and not plausible_national_phone(text, start, end):
            return
        score = PHONE_SCORE_INTERNATIONAL if international else PHONE_SCORE_NATIONAL
        key = (start, end)
        if key not in seen or seen[key].score < score:
            seen[key] = RecognizerResult(
                entity_type=self.supported_entities[0],
                start=start,
                end=end,
                score=score,
                analysis_explanation=AnalysisExplanation(
                    recognizer=type(self).__name__,
                    original_score=score,
                    textual_explanation=f"Recognized as {region} region phone number",
                ),
                recognition_metadata={
                    RecognizerResult.RECOGNIZER_NAME_KEY: _PHONE_RECOGNIZER_NAME,
                    RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                },
            )


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class AnyCaseIbanRecognizer(IbanRecognizer):
    """presidio's IBAN recognizer (pattern, country format, mod-97 check) for IBANs typed in lower case too.

    The upstream pattern only knows upper case. A second pass runs on the ASCII-upper-cased text (unlike
    ``str.upper``, which turns "ß" into "SS", it keeps every offset) and keeps a span only when its letters
    were typed in one case, as people type an IBAN: "de89 3704 ..." is an IBAN, while "CY17 ... 7601 failed"
    must not swallow the word after it.
    """

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Upstream analysis of the text as typed, plus lower-case IBANs found in the upper-cased text."""
        found: dict[tuple[int, int], RecognizerResult] = {}
        for candidate_text in (text, text.translate(_ASCII_UPPER)):
            results: list[RecognizerResult] = super().analyze(
                candidate_text,
                entities,
                nlp_artifacts,  # type: ignore[arg-type]  # presidio accepts None (no context words)
                regex_flags,  # type: ignore[arg-type]  # None selects the recognizer's own flags
            )
            for result in results:
                letters = [c for c in text[result.start : result.end] if c.isalpha()]
                one_case = all(c.isupper() for c in letters) or all(c.islower() for c in letters)
                if one_case and (result.start, result.end) not in found:
                    found[(result.start, result.end)] = result
        return list(found.values())


def _require(row: dict[str, Any], key: str, index: int) -> Any:
    if key not in row:
        raise RecognizerConfigError(f"recognizers.yaml entry #{index} is missing field {key!r}")
    return row[key]


def parse_specs(data: dict[str, Any]) -> tuple[RecognizerSpec, ...]:
    """Validate the parsed YAML table and turn it into specs.

    Raises:
        RecognizerConfigError: a field is missing, a validator name is unknown, or names repeat.
    """
    rows = data.get("recognizers") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise RecognizerConfigError("recognizers.yaml must hold a non-empty 'recognizers' list")
    specs: list[RecognizerSpec] = []
    for index, row in enumerate(rows):
        name = str(_require(row, "name", index))
        validator = str(_require(row, "validator", index))
        if validator not in VALIDATORS:
            raise RecognizerConfigError(
                f"recognizer {name!r} names unknown validator {validator!r}; known: {sorted(VALIDATORS)}"
            )
        patterns = tuple(
            (
                str(_require(p, "name", index)),
                str(_require(p, "regex", index)),
                float(_require(p, "score", index)),
            )
            for p in _require(row, "patterns", index)
        )
        specs.append(
            RecognizerSpec(
                name=name,
                entity=str(_require(row, "entity", index)),
                placeholder=str(_require(row, "placeholder", index)),
                validator=validator,
                patterns=patterns,
                context=tuple(str(word) for word in row.get("context", ())),
            )
        )
    if len({spec.name for spec in specs}) != len(specs):
        raise RecognizerConfigError("recognizers.yaml has duplicate recognizer names")
    return tuple(specs)


@functools.cache
def load_specs() -> tuple[RecognizerSpec, ...]:
    """Load and validate the packaged ``recognizers.yaml`` (cached: the file never changes at run time)."""
    text = resources.files("guardrails.pii").joinpath("recognizers.yaml").read_text(encoding="utf-8")
    return parse_specs(yaml.safe_load(text))


def placeholder_labels() -> dict[str, str]:
    """Return entity type -> placeholder label for every entity we mask."""
    labels = dict(PREDEFINED_PLACEHOLDERS)
    labels.update({spec.entity: spec.placeholder for spec in load_specs()})
    return labels


def build_recognizers(language: str) -> list[EntityRecognizer]:
    """Return every recognizer we run for ``language``: ours from the table, then presidio's."""
    recognizers: list[EntityRecognizer] = [
        DataPatternRecognizer(spec, VALIDATORS[spec.validator], language) for spec in load_specs()
    ]
    recognizers.extend(
        [
            OfflineEmailRecognizer(supported_language=language),
            CreditCardRecognizer(supported_language=language),
            AnyCaseIbanRecognizer(supported_language=language),
            IpRecognizer(supported_language=language),
            RegionalPhoneRecognizer(supported_language=language),
        ]
    )
    return recognizers
