from .fetch import fetch_record
from .models import CachedRecord, Record

__all__ = ["CachedRecord", "Record", "fetch_record"]
