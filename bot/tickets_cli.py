"""Former home of ``dasar tickets``; the commands live in :mod:`bot.cli.tickets` now (kept for imports)."""

from bot.cli.tickets import register, register_ticket_commands, report_html, report_json, ticket_json

__all__ = ["register", "register_ticket_commands", "report_html", "report_json", "ticket_json"]
