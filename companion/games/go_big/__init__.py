"""Go Big: the engine and its options and action models."""
from .engine import GoBig
from .models import Options

__all__ = ["GoBig", "Options"]
