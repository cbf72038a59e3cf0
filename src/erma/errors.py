"""The project's few named errors, all ``ValueError`` subclasses whose message quotes the input."""

from __future__ import annotations


class ErmaError(ValueError):
    """Base of erma's errors."""


class InvalidNotationError(ErmaError):
    """Tile notation that cannot be read (无法解析的牌面)."""


class InvalidHandError(ErmaError):
    """A hand that breaks a rule of shape: tile count, copy limit, meld form (不合法的手牌)."""


class RuleSetError(ErmaError):
    """An unknown or malformed rule set or fan table (规则或番表错误)."""


class IllegalActionError(ErmaError):
    """An action that is malformed or not legal now; the message names the action and the phase (非法动作)."""


class InvalidRecordError(ErmaError):
    """A game record that cannot be read or does not replay (牌谱错误)."""


class InvalidInputError(ErmaError):
    """A value the store refuses: a malformed name, password, amount, day or unit (无效输入)."""


class NameTakenError(ErmaError):
    """A player name that is already registered (用户名已被占用)."""


class InsufficientBeansError(ErmaError):
    """An account that cannot put up any beans for a hand (欢乐豆不足)."""


class UnknownBotError(ErmaError):
    """A bot name that no bot answers to (未知的机器人)."""


class ReviewError(ErmaError):
    """A review that cannot be made: a seat other than 0 or 1, a sample count below 2 (复盘错误)."""
