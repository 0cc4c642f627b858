from places.models import Origin

__all__ = ["Origin"]
