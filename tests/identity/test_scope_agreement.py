"""One access rule: ``Principal.can_read`` (identity, a leaf) and ``kb.scope.ReaderScope.can_read`` agree on
every sample user and document, entities included; a reader scope can only be narrowed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from identity.principal import VerifiedEnvelope
from identity.resolver import PrincipalResolver
from identity.yaml_directory import YamlDirectory
from kb.scope import ReaderScope
from kb.store.protocol import SearchFilter
from tools.access import reader_scope

ROOT = Path(__file__).resolve().parents[2]


def _documents() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    out = []
    for path in sorted((ROOT / "corpus" / "internal").glob("*.md")):
        front = yaml.safe_load(path.read_text(encoding="utf-8").split("---\n")[1])
        out.append((path.stem, tuple(front.get("access") or ()), tuple(front.get("entities") or ())))
    return out


def test_principal_and_reader_scope_agree_on_every_sample_user_and_document() -> None:
    """Finding: ``Principal.can_read`` (and the eval's leak metric) checked groups only."""
    directory = YamlDirectory(ROOT / "corpus" / "directory.yaml")
    resolver = PrincipalResolver(directory)
    users = yaml.safe_load((ROOT / "corpus" / "directory.yaml").read_text(encoding="utf-8"))["users"]
    documents = _documents()
    checked = 0
    for fields in users.values():
        principal = resolver.resolve(VerifiedEnvelope("slack", "T", fields["slack_id"]))
        scope = reader_scope(principal)
        for _doc, access, entities in documents:
            assert principal.can_read(access, entities) == scope.can_read(access, entities)
            checked += 1
    assert checked > 100
    snl_only = next(d for d in documents if d[0] == "snl-freight-pph23-procedure")
    clerk = resolver.resolve(VerifiedEnvelope("slack", "T", "U04APCLRK1"))  # finance/ap, SNR
    assert clerk.can_read(snl_only[1]) is True  # groups alone would let the SNR clerk in ...
    assert clerk.can_read(snl_only[1], snl_only[2]) is False  # ... entities keep the SNL procedure out


def test_a_reader_scope_is_frozen_and_only_narrows() -> None:
    scope = ReaderScope(frozenset({"finance"}), frozenset({"SNR", "SNL"}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        scope.groups = frozenset({"tax-team"})  # type: ignore[misc]
    narrower = scope.within(ReaderScope(frozenset({"finance", "tax-team"}), frozenset({"SNR"})))
    assert narrower.groups == {"finance", "everyone"} and narrower.entities == {"SNR"}
    assert ReaderScope.common([]).can_read(["everyone"], ["SNR"]) is False  # nobody known: public only


def test_the_corrective_retry_relaxes_narrowing_never_access() -> None:
    """Finding: ``SearchFilter.relaxed()`` dropped the entities along with the optional narrowing."""
    import datetime as dt

    from kb.scope import Narrowing

    scope = ReaderScope(frozenset({"finance"}), frozenset({"SNR"}), dt.date(2026, 1, 1))
    flt = SearchFilter.of(scope, Narrowing(tax_types=frozenset({"PPh 23"}), language="id"))
    relaxed = flt.relaxed()
    assert relaxed.scope == flt.scope and relaxed.enforce_entities
    assert relaxed.entities == {"SNR"} and relaxed.tax_types == frozenset() and relaxed.language is None
