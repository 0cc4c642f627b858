"""Other half of the cycle."""

from . import a


class Beta:
    """Beta refers back to Alpha."""

    def partner(self):
        return a.Alpha()
