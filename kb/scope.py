"""Who may read what: one frozen reader scope for every access check, and the narrowing that may be relaxed.

Why one object: access used to be decided in several places that disagreed (groups with entities in one
filter, groups only in another, entities dropped by the corrective retry).  ``ReaderScope`` is the single
answer to "may this reader see this document": its groups must meet the document's access groups, and when
the document names legal entities the reader must belong to one of them (``corpus/directory.yaml``:
entities are access).  A scope can only ever be narrowed (:meth:`ReaderScope.within`,
:meth:`ReaderScope.common`); nothing widens it.  What a corrective retry may drop (tax type, language,
jurisdiction, document ids) lives in the separate :class:`Narrowing`.

This module is a leaf: it imports nothing of ours, so ``kb``, ``tools``, ``bot`` and the evals share it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

#: The group every reader (guests included) belongs to; documents open to all list it in ``access``.
EVERYONE = "everyone"


def _names(label: str, values: Iterable[str]) -> frozenset[str]:
    if isinstance(values, str):
        raise TypeError(f"{label} must be an iterable of names, not a single string")
    return frozenset(str(v) for v in values)


@dataclass(frozen=True)
class ReaderScope:
    """The access of the people a reply will reach.

    Attributes:
        groups: access groups (always includes ``everyone``).
        entities: legal entities (SNR, SNL, ...); a document that names entities is readable only by a
            reader of one of them; a document naming none applies to all.
        as_of: the transaction date the reply is about (None: decided by the caller).
        audience: ids of the readers this scope stands for (the asker alone in a DM; every member of a
            shared conversation); for logs and explanations only.
    """

    groups: frozenset[str]
    entities: frozenset[str] = frozenset()
    as_of: dt.date | None = None
    audience: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", _names("groups", self.groups) | {EVERYONE})
        object.__setattr__(self, "entities", _names("entities", self.entities))
        object.__setattr__(self, "audience", tuple(sorted(set(self.audience))))

    @classmethod
    def public(cls, as_of: dt.date | None = None) -> ReaderScope:
        """A reader with no groups and no entities: documents open to everyone and naming no entity."""
        return cls(groups=frozenset({EVERYONE}), entities=frozenset(), as_of=as_of)

    def can_read(self, access: Iterable[str], entities: Iterable[str] = ()) -> bool:
        """The one access rule: a shared group, and (when the document names entities) a shared entity.

        Raises:
            TypeError: ``access`` or ``entities`` is a single string (it would be read as letters).
        """
        access_set = _names("access", access)
        doc_entities = _names("entities", entities)
        if self.groups.isdisjoint(access_set):
            return False
        return not doc_entities or not self.entities.isdisjoint(doc_entities)

    def at(self, as_of: dt.date) -> ReaderScope:
        """The same readers on another transaction date (dates are not access)."""
        return ReaderScope(self.groups, self.entities, as_of, self.audience)

    def within(self, other: ReaderScope) -> ReaderScope:
        """This scope narrowed to what ``other`` may also read (never wider than either)."""
        return ReaderScope(
            self.groups & other.groups,
            self.entities & other.entities,
            self.as_of if self.as_of is not None else other.as_of,
            (*self.audience, *other.audience),
        )

    @classmethod
    def common(cls, scopes: Iterable[ReaderScope], as_of: dt.date | None = None) -> ReaderScope:
        """What every one of ``scopes`` may read (an empty audience reads public documents only)."""
        result: ReaderScope | None = None
        for scope in scopes:
            result = scope if result is None else result.within(scope)
        if result is None:
            return cls.public(as_of)
        return result if as_of is None else result.at(as_of)


@dataclass(frozen=True)
class Narrowing:
    """Optional filters a search may add and a corrective retry may drop; never access."""

    tax_types: frozenset[str] = frozenset()
    language: str | None = None
    jurisdiction: str | None = None
    doc_ids: frozenset[str] = frozenset()

    def relaxed(self) -> Narrowing:
        """No narrowing at all (access stays in the :class:`ReaderScope`, untouched)."""
        return Narrowing()

    @property
    def empty(self) -> bool:
        return not (self.tax_types or self.language or self.jurisdiction or self.doc_ids)
