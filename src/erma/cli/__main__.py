"""``python -m erma.cli``: the ``erma`` command."""

from erma.cli import main

raise SystemExit(main())
