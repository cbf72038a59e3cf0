"""erma (二麻): two-player mahjong — tiles, hand analysis, fan scoring, the game engine, bots and server.

The pure layers (``tiles``, ``hand``, ``analysis``, ``scoring``) use the standard library only.
"""

__version__ = "0.1.0"
