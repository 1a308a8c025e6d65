"""``tabula.xiangqi`` is the native module ``tabula._tabula.xiangqi``: see its stub."""

from ._tabula.xiangqi import *
from ._tabula.xiangqi import __all__ as __all__
