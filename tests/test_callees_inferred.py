"""'What does X call?' when the index cannot place a call but inference at its site can (fixture
`inferred_callee`: `self._items.append(item)` on an attribute annotated `list[str]`). The site is
listed with where it lands, and is not also reported as an unresolved call (which made the answer
partial though every call was placed)."""

from __future__ import annotations

import pytest

from codehop.api import ask


@pytest.mark.slow
def test_a_call_placed_by_inference_is_not_also_unresolved(fixture_repo) -> None:  # type: ignore[no-untyped-def]
    repo = fixture_repo("inferred_callee")
    d = ask("what does Queue.push call?", repo=repo).to_dict()
    assert "queues/queue.py:6" in d["answer"] and "outside the repository" in d["answer"]
    assert "queues/queue.py:7" in d["answer"] and "Queue.log" in d["answer"]
    assert "not resolved" not in d["answer"]
    assert d["state"] == "complete"
