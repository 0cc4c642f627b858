from .box import Box, Crate
from .checks import ok
from .engine import create_engine
from .jar import Jar
from .session import Session

__all__ = ["Box", "Crate", "Jar", "Session", "create_engine", "ok"]
