"""The offline presidio analyzer, built once per process, and span detection on top of it.

Why a custom NLP engine: ``AnalyzerEngine()`` without arguments wants ``en_core_web_lg`` and tries to
download it. Our recognizers are regex + checksum, so tokens are all presidio needs (for context words);
blank spaCy pipelines give tokens with no model files and no network. :class:`BlankSpacyNlpEngine`
builds them in memory, so nothing is written to disk either.

Building the engine costs ~1 s (spaCy language data, regex compilation); :func:`get_analyzer` caches it.
"""

from __future__ import annotations

import functools
import logging

import spacy
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine

from guardrails.errors import PiiEngineError
from guardrails.pii.entities import Entity
from guardrails.pii.recognizers import build_recognizers, placeholder_labels

logger = logging.getLogger(__name__)

#: Languages the analyzer is built for. Indonesian first: it is the default analysis language, and the
#: recognizers are language-neutral (digits, emails), so mixed Indonesian/English text works either way.
LANGUAGES: tuple[str, ...] = ("id", "en")
DEFAULT_LANGUAGE = "id"

#: Results below this presidio score are dropped. Validated identifiers score 1.0; presidio's IP
#: recognizer scores 0.6 without a checksum; anything weaker is too noisy to mask on.
SCORE_THRESHOLD = 0.5

#: Tie-break order when two spans of equal score and length overlap (first wins).
ENTITY_PRIORITY: tuple[str, ...] = (
    "ID_NITKU",
    "ID_NIK",
    "ID_NPWP",
    "CREDIT_CARD",
    "IBAN_CODE",
    "BANK_ACCOUNT",
    "PHONE_NUMBER",
    "EMAIL_ADDRESS",
    "IP_ADDRESS",
)


class BlankSpacyNlpEngine(SpacyNlpEngine):
    """A ``SpacyNlpEngine`` over in-memory ``spacy.blank(lang)`` pipelines: tokens only, no NER, offline."""

    def __init__(self, languages: tuple[str, ...]) -> None:
        """Prepare (not yet load) blank pipelines for ``languages``."""
        super().__init__(
            models=[{"lang_code": lang, "model_name": f"blank:{lang}"} for lang in languages],
            ner_model_configuration=NerModelConfiguration(labels_to_ignore=[]),
        )
        self._languages = languages

    def load(self) -> None:
        """Create the blank pipeline (never downloads: there is no model to fetch).

        One language-neutral ``xx`` tokenizer serves every language: recognizers here are patterns and
        checksums, and ``spacy.blank("id")`` alone spends seconds building ~16,000 Indonesian tokenizer
        exceptions that no recognizer reads (``dasar mask`` took 7-14 s per call because of it).
        """
        blank = spacy.blank("xx")
        self.nlp = {lang: blank for lang in self._languages}  # type: ignore[assignment]


@functools.cache
def get_analyzer() -> AnalyzerEngine:
    """Return the process-wide offline analyzer, building it on first use.

    Raises:
        PiiEngineError: spaCy or presidio could not build the engine; masking must fail closed.
    """
    try:
        nlp_engine = BlankSpacyNlpEngine(LANGUAGES)
        nlp_engine.load()
        registry = RecognizerRegistry(supported_languages=list(LANGUAGES))
        for lang in LANGUAGES:
            for recognizer in build_recognizers(lang):
                registry.add_recognizer(recognizer)
        analyzer = AnalyzerEngine(
            registry=registry,
            nlp_engine=nlp_engine,
            supported_languages=list(LANGUAGES),
            default_score_threshold=SCORE_THRESHOLD,
        )
    except (ImportError, OSError, ValueError) as exc:
        raise PiiEngineError(
            f"could not build the offline PII analyzer ({type(exc).__name__}); check that spacy and "
            "presidio-analyzer are installed"
        ) from exc
    logger.info(
        "languages=%s, recognizers=%s | pii analyzer built", LANGUAGES, len(list(registry.recognizers))
    )
    return analyzer


@functools.cache
def supported_entities() -> tuple[str, ...]:
    """Return the entity types we detect (and only those: no dates, no amounts, no names)."""
    return tuple(sorted(placeholder_labels()))


def _rank(result: RecognizerResult) -> tuple[float, int, int, int, str]:
    priority = ENTITY_PRIORITY.index(result.entity_type) if result.entity_type in ENTITY_PRIORITY else 99
    return (-result.score, -(result.end - result.start), priority, result.start, result.entity_type)


def resolve_overlaps(results: list[RecognizerResult]) -> tuple[Entity, ...]:
    """Keep a deterministic set of non-overlapping spans: best score, then longest, then priority."""
    kept: list[RecognizerResult] = []
    for result in sorted(results, key=_rank):
        if all(result.end <= other.start or result.start >= other.end for other in kept):
            kept.append(result)
    return tuple(
        sorted(Entity(start=r.start, end=r.end, type=r.entity_type, score=float(r.score)) for r in kept)
    )


def detect(text: str, language: str = DEFAULT_LANGUAGE) -> tuple[Entity, ...]:
    """Find PII spans in ``text``; offsets refer to ``text`` itself.

    Args:
        text: Raw text (a chat message, a ticket body, a document passage).
        language: One of :data:`LANGUAGES`; recognizers are the same for both.

    Returns:
        Non-overlapping entities sorted by start offset.
    """
    if not text.strip():
        return ()
    results = get_analyzer().analyze(
        text=text,
        language=language,
        entities=list(supported_entities()),
        score_threshold=SCORE_THRESHOLD,
    )
    return resolve_overlaps(results)
