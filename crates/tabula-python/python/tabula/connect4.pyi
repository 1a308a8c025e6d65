"""``tabula.connect4`` is the native module ``tabula._tabula.connect4``: see its stub."""

from ._tabula.connect4 import *
from ._tabula.connect4 import __all__ as __all__
