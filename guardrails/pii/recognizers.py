"""Build presidio recognizers from our data table plus the predefined ones we rely on.

Why data: recognizers for identifiers change when regulations change (the 2024 switch to 16-digit NPWP
is the latest example). Keeping patterns, context words and scores in ``recognizers.yaml`` and the
checksum logic in :mod:`guardrails.pii.validators` lets a reviewer see every pattern in one place and
lets tests iterate over the table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import tldextract
import yaml
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
)

from guardrails.errors import RecognizerConfigError
from guardrails.pii.validators import VALIDATORS

#: Placeholder labels of the presidio-provided entity types we mask.
PREDEFINED_PLACEHOLDERS: dict[str, str] = {
    "EMAIL_ADDRESS": "EMAIL",
    "CREDIT_CARD": "CARD",
    "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP",
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
            IbanRecognizer(supported_language=language),
            IpRecognizer(supported_language=language),
        ]
    )
    return recognizers
