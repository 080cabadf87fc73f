"""Nothing Beats a Large: the engine and its pieces, options and action models."""
from .engine import NothingBeatsALarge
from .models import COLORS, Options
from .pieces import sorted_pieces

__all__ = ["COLORS", "NothingBeatsALarge", "Options", "sorted_pieces"]
