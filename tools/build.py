"""``build_tools``: the complete, closed set of tools one turn may use."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from identity.principal import Principal
from tools.access import DocumentArgs, PermissionArgs, make_check_document_access, make_check_permission
from tools.deps import ToolDeps
from tools.law import LawArgs, make_law_as_of
from tools.ledger import Ledger
from tools.search import SearchArgs, make_search_kb
from tools.strict import StrictTool
from tools.ticketing import CreateTicketArgs, UpdateTicketArgs, make_create_ticket, make_update_ticket

#: Every tool name a turn may call; anything else is cancelled by the agent's allow-list hook.
TOOL_NAMES: tuple[str, ...] = (
    "search_kb",
    "law_as_of",
    "check_document_access",
    "check_permission",
    "create_ticket",
    "update_ticket",
)

#: Argument names no tool may ever take (identity lives in the closure, not in the schema).
FORBIDDEN_ARGUMENTS: frozenset[str] = frozenset(
    {
        "user",
        "user_id",
        "email",
        "user_email",
        "principal",
        "group",
        "groups",
        "tenant",
        "tenant_id",
        "as_user",
    }
)


@dataclass(frozen=True)
class TurnTools:
    """The tools of one turn and the ledger they write to."""

    tools: tuple[StrictTool, ...]
    ledger: Ledger

    def __iter__(self) -> Iterator[StrictTool]:
        return iter(self.tools)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.tool_name for t in self.tools)

    def get(self, name: str) -> StrictTool:
        """The tool called ``name``.

        Raises:
            KeyError: no such tool in this turn.
        """
        for t in self.tools:
            if t.tool_name == name:
                return t
        raise KeyError(f"no tool {name!r}; tools of this turn: {', '.join(self.names)}")


def build_tools(principal: Principal, deps: ToolDeps, *, ledger: Ledger | None = None) -> TurnTools:
    """Build this turn's tools, each a closure over ``principal``.

    Args:
        principal: The resolved, verified identity of the asker (never taken from message text).
        deps: Services and per-turn facts (retriever, store, ticket store, thread, requester, as-of default).
        ledger: Ledger to record into (a fresh one by default).

    Returns:
        The tools (search_kb, law_as_of, check_document_access, check_permission, create_ticket,
        update_ticket) and their ledger.
    """
    ledger = ledger if ledger is not None else Ledger()
    tools = (
        StrictTool("search_kb", SearchArgs, make_search_kb(principal, deps), ledger),
        StrictTool("law_as_of", LawArgs, make_law_as_of(principal, deps), ledger),
        StrictTool(
            "check_document_access", DocumentArgs, make_check_document_access(principal, deps), ledger
        ),
        StrictTool("check_permission", PermissionArgs, make_check_permission(principal), ledger),
        StrictTool("create_ticket", CreateTicketArgs, make_create_ticket(principal, deps, ledger), ledger),
        StrictTool("update_ticket", UpdateTicketArgs, make_update_ticket(principal, deps, ledger), ledger),
    )
    for t in tools:
        bad = set(t.tool_spec["inputSchema"]["json"]["properties"]) & FORBIDDEN_ARGUMENTS
        if bad:  # a future edit must not reintroduce identity arguments
            raise AssertionError(f"tool {t.tool_name} exposes identity arguments {sorted(bad)}")
    return TurnTools(tools, ledger)
