"""``tabula.gomoku`` is the native module ``tabula._tabula.gomoku``: see its stub."""

from ._tabula.gomoku import *
from ._tabula.gomoku import __all__ as __all__
