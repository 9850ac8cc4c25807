"""Microsoft Teams front end: the tax team's ticket cards, card actions, relays and the outbox worker.

Every botbuilder import stays inside this package (``connector``, ``bot``, ``answering``, ``app``; the
adapter is ``CloudAdapter``), so the Bot Framework SDK 4.17 (archived) can be swapped for the Microsoft 365
Agents SDK by rewriting those four modules; ``cards``, ``actions``, ``strings``, ``relay``, ``journal``,
``sender`` (apart from the gateway type) and ``errors`` are SDK-free.  This ``__init__`` imports nothing,
so ``import bot.teams.cards`` never loads botbuilder.

Modules: ``app`` (TeamsDeps, build_teams_app, serve), ``bot`` (activity handler), ``answering``
(questions answered after the HTTP response), ``actions`` (card rules), ``cards`` (Adaptive Card JSON),
``strings`` (user-facing text), ``connector`` (Bot Connector gateway), ``sender`` (outbox sender),
``journal`` (idempotent delivery), ``relay`` (answers back to Slack/Teams), ``outbox_worker`` (delivery
loop), ``errors`` (hierarchy).
"""
