"""``python -m bot.cli``: the same as the ``dasar`` script."""

from bot.cli import main

raise SystemExit(main())
