"""Adapter that turns any NLI classifier into a :class:`~guardrails.verify.protocol.SupportJudge`.

No model ships with dasar (hubs are unreachable and weights are large); a deployment that has one
passes a callable ``(premise, hypothesis) -> {"entailment": p, "contradiction": p, "neutral": p}``,
or names it in configuration as ``"package.module:function"`` (imported lazily, only when asked).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping

from guardrails.verify.errors import JudgeConfigError, JudgeError
from guardrails.verify.records import JudgeResult, SupportVerdict

NliPredict = Callable[[str, str], Mapping[str, float]]

_LABELS = ("entailment", "contradiction", "neutral")
_VERDICT: dict[str, SupportVerdict] = {
    "entailment": "entailed",
    "contradiction": "contradicted",
    "neutral": "not_supported",
}


class NliSupportJudge:
    """Support judge backed by an NLI classifier (premise = passage, hypothesis = claim).

    Verdict: ``entailed`` only when p(entailment) reaches ``entail_threshold`` and is the largest
    probability; otherwise the most probable of contradiction / neutral (ties go to contradiction,
    the safer reading).  Score = p(entailment).

    Args:
        predict: The classifier; label keys are matched case-insensitively.
        entail_threshold: Minimum p(entailment) for ``entailed``; 0.5 means "more likely than not".
    """

    def __init__(self, predict: NliPredict, *, entail_threshold: float = 0.5) -> None:
        if not 0.0 <= entail_threshold <= 1.0:
            raise JudgeConfigError(f"entail_threshold must be in [0, 1], got {entail_threshold!r}")
        self._predict = predict
        self._threshold = entail_threshold

    @classmethod
    def from_config(cls, dotted: str, *, entail_threshold: float = 0.5) -> NliSupportJudge:
        """Build from a ``"module:attribute"`` path naming the predict callable (imported now).

        Raises:
            JudgeConfigError: The path is malformed, the module is missing, or the attribute is not callable.
        """
        module_name, sep, attr = dotted.partition(":")
        if not sep or not module_name or not attr:
            raise JudgeConfigError(f"NLI judge path must look like 'package.module:function', got {dotted!r}")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise JudgeConfigError(
                f"cannot import NLI module {module_name!r}: {exc}; install it or fix the path"
            ) from exc
        fn = getattr(module, attr, None)
        if not callable(fn):
            raise JudgeConfigError(f"{dotted!r} is not a callable in module {module_name!r}")
        return cls(fn, entail_threshold=entail_threshold)

    def _probs(self, premise: str, hypothesis: str) -> dict[str, float]:
        raw = self._predict(premise, hypothesis)
        lowered = {str(k).lower(): v for k, v in raw.items()}
        probs: dict[str, float] = {}
        for label in _LABELS:
            value = lowered.get(label)
            if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
                raise JudgeError(f"NLI model returned no usable {label!r} probability (got {value!r})")
            if not 0.0 <= float(value) <= 1.0:
                raise JudgeError(f"NLI model returned {label!r}={value!r}, outside [0, 1]")
            probs[label] = float(value)
        total = sum(probs.values())
        if total <= 0.0:
            raise JudgeError("NLI model returned all-zero probabilities")
        return {k: v / total for k, v in probs.items()}

    def judge(self, claim: str, passage: str) -> JudgeResult:
        """Classify ``passage`` (premise) against ``claim`` (hypothesis)."""
        p = self._probs(passage, claim)
        reasons = tuple(f"p_{label}={p[label]:.3f}" for label in _LABELS)
        if p["entailment"] >= self._threshold and p["entailment"] > max(p["contradiction"], p["neutral"]):
            return JudgeResult("entailed", p["entailment"], reasons)
        label = "contradiction" if p["contradiction"] >= p["neutral"] else "neutral"
        return JudgeResult(_VERDICT[label], p["entailment"], reasons)
