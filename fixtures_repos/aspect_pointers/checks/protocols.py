from typing import Protocol


class Checker(Protocol):
    def validate(self, instance):
        """Check the instance, raising on the first error."""

    def is_valid(self, instance) -> bool:
        """Whether the instance passes."""
        ...
