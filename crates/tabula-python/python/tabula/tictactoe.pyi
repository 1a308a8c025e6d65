"""``tabula.tictactoe`` is the native module ``tabula._tabula.tictactoe``: see its stub."""

from ._tabula.tictactoe import *
from ._tabula.tictactoe import __all__ as __all__
