"""erma (二麻): two-player mahjong — tiles, hand analysis, fan scoring, the game engine, bots and server.

The pure layers (``tiles``, ``hand``, ``analysis``, ``scoring``) use the standard library only. Where a C
compiler was found at install time, the core is compiled by mypyc from these same sources;
``ERMA_PURE=1`` at run time imports the ``.py`` sources instead (:mod:`erma.build`).
"""

from erma.build import install_source_finder, pure_requested

if pure_requested():
    install_source_finder()

__version__ = "0.1.0"
