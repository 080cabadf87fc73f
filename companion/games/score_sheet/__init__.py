"""Score sheet: a sheet for any other game, on every phone, with secret entry and tie-breaks."""
from .engine import ScoreSheet
from .models import Options

__all__ = ["ScoreSheet", "Options"]
