"""codehop: answers questions about a Python repository by resolving pointers to declarations.

`codehop.ask(question, repo=".", max_loops=1, generator="offline", budget_tokens=2000)`.
Heavy modules load on first use, so importing codehop is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codehop.api import ask
    from codehop.kernel.records import Answer

__all__ = ["Answer", "ask"]


def __getattr__(name: str) -> Any:
    if name == "ask":
        from codehop.api import ask

        return ask
    if name == "Answer":
        from codehop.kernel.records import Answer

        return Answer
    raise AttributeError(name)
