"""Narrow, closure-bound tools: the only actions a turn (model or extractive answerer) may take.

``build_tools(principal, deps)`` returns search_kb, check_document_access, check_permission,
create_ticket and update_ticket, each a closure holding the principal; no schema has a user, email,
group or tenant argument and unknown arguments are refused.  A per-turn :class:`Ledger` records every
hit, citation, ticket and tool call.

Modules: ``deps`` (ToolDeps), ``ledger`` (Ledger), ``fence`` (passages as data), ``strict`` (strict
argument validation on top of strands' PythonAgentTool), ``search``, ``access``, ``ticketing``, ``build``,
``errors``.  Imports kb, tickets, identity and strands -- never bot.
"""

from tools.build import FORBIDDEN_ARGUMENTS, TOOL_NAMES, TurnTools, build_tools
from tools.deps import MAX_TOP_K, MIN_TOP_K, ToolDeps
from tools.errors import ToolAccessDenied, ToolInputError, ToolsError, ToolUnavailable
from tools.fence import FENCE_HEADER, NO_RESULTS, FencedPassage, fence_passages, parse_passages, unescape
from tools.ledger import Ledger, LedgerCitation, LedgerHit, LedgerTicket, LedgerToolCall
from tools.strict import StrictTool, ToolOutcome

__all__ = [
    "FENCE_HEADER",
    "FORBIDDEN_ARGUMENTS",
    "MAX_TOP_K",
    "MIN_TOP_K",
    "NO_RESULTS",
    "TOOL_NAMES",
    "FencedPassage",
    "Ledger",
    "LedgerCitation",
    "LedgerHit",
    "LedgerTicket",
    "LedgerToolCall",
    "StrictTool",
    "ToolAccessDenied",
    "ToolDeps",
    "ToolInputError",
    "ToolOutcome",
    "ToolUnavailable",
    "ToolsError",
    "TurnTools",
    "build_tools",
    "fence_passages",
    "parse_passages",
    "unescape",
]
