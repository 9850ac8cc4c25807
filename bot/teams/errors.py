"""One error hierarchy for the Teams front end (messages say what to do next).

TeamsError
├── TeamsConfigError      settings missing or contradictory (app id, channel, service URL)
├── ActionRejected        a card action the clicking person may not perform, or malformed data
│   ├── NotPermitted      the person lacks the role (tax_team / faq_approver)
│   └── BadActionData     the card data or an input is missing or invalid
└── DeliveryError         the Bot Connector or Slack refused a post; the outbox retries it
"""

from __future__ import annotations


class TeamsError(Exception):
    """Base class of every error raised by :mod:`bot.teams`."""


class TeamsConfigError(TeamsError):
    """Settings are missing or contradictory; the message names the ``DASAR_*`` variable to set."""


class ActionRejected(TeamsError):
    """A card action was refused; the message is shown to the person who clicked."""


class NotPermitted(ActionRejected):
    """The clicking person lacks the role the action needs."""


class BadActionData(ActionRejected):
    """The card data or an input is missing or invalid."""


class DeliveryError(TeamsError):
    """A remote service refused a post or update; safe to retry (the outbox does)."""


def exception_chain(exc: BaseException, limit: int = 12) -> list[BaseException]:
    """``exc`` and what it wraps (``__cause__``, msrest's ``inner_exception``, ``__context__``), in order.

    The SDKs wrap transport and token errors several layers deep; callers classify by what is inside.
    """
    chain: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and all(cur is not seen for seen in chain) and len(chain) < limit:
        chain.append(cur)
        inner = getattr(cur, "inner_exception", None)
        cur = cur.__cause__ or (inner if isinstance(inner, BaseException) else None) or cur.__context__
    return chain
