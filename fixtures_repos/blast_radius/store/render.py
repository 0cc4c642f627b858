from .models import Record
from .styles import lookup


def render(record: Record) -> str:
    key_style = lookup("record.key")
    value_style = lookup("record.value")
    return f"[{key_style}]{record.key}[/] [{value_style}]{record.value}[/]"
