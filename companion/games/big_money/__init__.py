"""Big Money (Wonder Forge, 2018): the engine, its box data and the Biz News effects."""
from .box import load_box, option_defaults
from .engine import BigMoney
from .models import Options

__all__ = ["BigMoney", "Options", "load_box", "option_defaults"]
