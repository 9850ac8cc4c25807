"""``check_document_access`` and ``check_permission``: yes/no answers about *this* principal only.

Both fail closed.  An unknown document and a document the principal may not read get the same answer,
so the tool cannot be used to learn that a confidential document exists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from identity.principal import Permission, Principal
from kb.scope import ReaderScope
from tools.deps import ToolDeps
from tools.strict import ToolOutcome

NO_ACCESS = "no such document or no access"

PermissionName = Literal[tuple(p.value for p in Permission)]  # type: ignore[valid-type]


def reader_scope(
    principal: Principal, as_of: dt.date | None = None, audience: ReaderScope | None = None
) -> ReaderScope:
    """The principal's reader scope (groups, entities), narrowed to ``audience`` when a reply reaches more
    people than the asker.  The one bridge from identity to :class:`kb.scope.ReaderScope`."""
    own = ReaderScope(principal.groups, principal.entities, as_of, (principal.id,))
    return own if audience is None else own.within(audience)


#: The tax team's access group: escalation tickets are read by it.
TAX_TEAM_GROUP = "tax-team"


def ticket_reader(principal: Principal, deps: ToolDeps) -> Callable[[str], bool]:
    """doc id -> may the ticket's audience (the tax team, with the asker's entities) read that document."""
    scope = deps.ticket_audience or ReaderScope(frozenset({TAX_TEAM_GROUP}), principal.entities)
    seen: dict[str, bool] = {}

    def readable(doc_id: str) -> bool:
        if doc_id not in seen:
            stored = deps.store.get_document(doc_id)
            seen[doc_id] = stored is not None and scope.can_read(stored.meta.access, stored.meta.entities)
        return seen[doc_id]

    return readable


class DocumentArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc_id: str = Field(
        min_length=1,
        max_length=200,
        description="Document id (e.g. 'pmk-168-2023') or number (e.g. 'PMK 168/2023').",
    )


class PermissionArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: PermissionName = Field(  # type: ignore[valid-type]
        description="The permission to check for the asking user."
    )


def make_check_document_access(principal: Principal, deps: ToolDeps) -> Callable[[DocumentArgs], ToolOutcome]:
    def check_document_access(args: DocumentArgs) -> ToolOutcome:
        """Tell whether the asking user may read one document of the knowledge base.

        Use it when the user asks about a specific document by id or number and search_kb returned nothing
        from it. Answers "yes: ..." with the document's number, title and status, or exactly
        "no such document or no access" (the two cases are deliberately indistinguishable). It never
        returns document text: use search_kb for content.
        """
        key = args.doc_id.strip()
        stored = deps.store.get_document(key) or deps.store.document_by_number(key)
        if (
            stored is None
            or stored.quarantine_reason is not None
            or not reader_scope(principal, audience=deps.audience).can_read(
                stored.meta.access, stored.meta.entities
            )
        ):
            return ToolOutcome(NO_ACCESS)
        meta = stored.meta
        return ToolOutcome(f"yes: {meta.number} ({meta.title}), status {meta.status}")

    return check_document_access


def make_check_permission(principal: Principal) -> Callable[[PermissionArgs], ToolOutcome]:
    def check_permission(args: PermissionArgs) -> ToolOutcome:
        """Tell whether the asking user holds one permission: may_escalate (open a ticket to the tax team),
        may_read_confidential_memos, may_approve_faq, may_act_on_tickets, may_see_tickets.

        Use it before offering an action the user may not be allowed to take. Answers "yes" or "no".
        """
        return ToolOutcome("yes" if principal.may(Permission(args.action)) else "no")

    return check_permission
