from .defaults import TIMEOUT_S
from .models import Record


def fetch_record(key, timeout_s=TIMEOUT_S):
    """Fetch one record by key."""
    return Record(key, _normalize(key))


def _normalize(key):
    return key.strip().lower()
