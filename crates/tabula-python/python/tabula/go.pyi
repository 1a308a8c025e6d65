"""``tabula.go`` is the native module ``tabula._tabula.go``: see its stub."""

from ._tabula.go import *
from ._tabula.go import __all__ as __all__
