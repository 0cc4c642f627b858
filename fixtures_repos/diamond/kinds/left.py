"""Left arm."""

from .base import Base


class Left(Base):
    def greet(self):
        return "left"
