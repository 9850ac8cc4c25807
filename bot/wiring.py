"""Compatibility names over :mod:`bot.runtime` (the composition root).

``Services`` is :class:`bot.runtime.Runtime`; new code calls :func:`bot.runtime.build_runtime`.
``search_filter`` builds a reader's filter through :class:`kb.scope.ReaderScope` (no other builder exists).
"""

from __future__ import annotations

import datetime as dt

from bot.runtime import Runtime, build_runtime, injection_flagger
from identity.principal import Principal
from kb.store.protocol import SearchFilter

#: Compatibility alias: ``Services(settings)`` is ``build_runtime(settings)``.
Services = Runtime

__all__ = ["Runtime", "SearchFilter", "Services", "build_runtime", "injection_flagger", "search_filter"]


def search_filter(principal: Principal, as_of: dt.date, **narrow: object) -> SearchFilter:
    """Access from the principal's reader scope (groups and entities, never relaxed); narrowing optional.

    Compatibility wrapper over :meth:`kb.store.protocol.SearchFilter.of`; ``narrow`` takes the
    :class:`kb.scope.Narrowing` fields (``tax_types``, ``language``, ``jurisdiction``, ``doc_ids``).
    """
    from kb.scope import Narrowing
    from tools.access import reader_scope

    narrow.pop("entities", None)  # entities are access, taken from the principal only
    return SearchFilter.of(reader_scope(principal, as_of), Narrowing(**narrow))  # type: ignore[arg-type]
