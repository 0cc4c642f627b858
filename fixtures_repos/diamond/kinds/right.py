"""Right arm."""

from .base import Base


class Right(Base):
    pass
