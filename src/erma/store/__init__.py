"""The store: accounts and sessions, the double-entry bean (欢乐豆) ledger and game records, on SQLite
(embedded default) or PostgreSQL, through SQLAlchemy's asyncio API. It knows nothing of tiles.

>>> from erma.store import Store, Account
"""

from __future__ import annotations

from erma.errors import InsufficientBeansError, InvalidInputError, NameTakenError
from erma.store.accounts import Account
from erma.store.ratings import RatedHand
from erma.store.store import Store

__all__ = ["Account", "InsufficientBeansError", "InvalidInputError", "NameTakenError", "RatedHand", "Store"]
