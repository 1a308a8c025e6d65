"""``tabula.chess`` is the native module ``tabula._tabula.chess``: see its stub."""

from ._tabula.chess import *
from ._tabula.chess import __all__ as __all__
