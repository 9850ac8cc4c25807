"""Slack front end: a slack-bolt app that turns verified Slack requests into ``InboundMessage`` objects,
runs the channel-neutral turn after the ack, and renders the ``Reply`` as Block Kit.

Modules (one job each):

* :mod:`bot.slack.app` -- ``build_slack_app`` / ``serve``: the bolt ``App``, HTTP (WSGI) and Socket Mode.
* :mod:`bot.slack.frontend` -- the listeners: triggers, dedupe, rate limit, working indicator, errors.
* :mod:`bot.slack.render` -- ``Reply`` -> Block Kit within Slack's limits.
* :mod:`bot.slack.strings` -- every user-facing string (Indonesian + English).
* :mod:`bot.slack.dedupe`, :mod:`bot.slack.ratelimit`, :mod:`bot.slack.state` -- protocols with in-process
  defaults; :mod:`bot.slack.redis_backends` -- their Redis implementations (imported lazily).
* :mod:`bot.slack.audience` -- the access groups shared by every member of a channel.

Importing this package does not import ``slack_bolt``/``slack_sdk``/``redis``; :mod:`bot.slack.app` does.
"""
