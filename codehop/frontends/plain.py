"""Text a front-end prints, made safe: `terminal_safe` for every human-facing line, `json_text`
for every JSON document. Kept apart from `render` (which loads the records) so the quick paths of
`launch` print exactly what the full command line prints.

Text from the repository is data: a docstring can hold escape sequences that retitle the
window, clear the screen or forge a hyperlink. Only newline and tab survive.
"""

from __future__ import annotations

import re
from typing import Any

# ESC-introduced sequences: CSI (ESC [ ... final), OSC / DCS / SOS / PM / APC (ESC ] P X ^ _ ...
# up to BEL or ST), and two-byte escapes (ESC + one byte); then the C1 forms of CSI and OSC/DCS
# (U+009B, U+009D, U+0090, ...), then any C0 or C1 control left, and DEL.
_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b[\]PX^_][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)


def terminal_safe(text: str) -> str:
    """`text` with every control sequence and control character removed except newline and tab."""
    return _SEQUENCES.sub("", text)


def json_text(data: Any) -> str:
    """`data` as indented JSON. JSON escapes C0 controls itself; C1 controls (U+0080-U+009F, which
    some terminals obey) are escaped here too."""
    import json  # (not loaded by `--help`, nor by a command that fails early)

    text = json.dumps(data, indent=2, ensure_ascii=False)
    return re.sub("[\x7f-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text)
