"""A module-level name annotated first and assigned after (`__version__: str`, then `__version__ =
"1.2.0"`, the shape version-file generators write) has one binding at run time: the bare annotation is
not an alternative binding, so the answer is complete. Fixture `annotated_version` (see
fixtures_repos/README.md): pkg/_version.py:1 annotates, :4 assigns; pkg/__init__.py:1 re-exports."""

from __future__ import annotations

from codehop.answer.orchestrator import Limits
from codehop.app import App
from codehop.kernel.records import State


def test_a_bare_annotation_is_not_an_alternative_binding(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("annotated_version"))
    try:
        d = app.navigator().ask("what is pkg.__version__?", Limits()).to_dict()
        assert d["state"] == State.COMPLETE
        assert "pkg/_version.py:4" in d["answer"] and "1.2.0" in d["answer"]
        assert "Also bound" not in d["answer"]
    finally:
        app.close()


def test_a_module_dunder_spelt_as_a_plain_word(fixture_repo):  # type: ignore[no-untyped-def]
    """ "what version is pkg?": `pkg.__version__`, the package's dunder the word spells."""
    app = App(fixture_repo("annotated_version"))
    try:
        d = app.navigator().ask("what version is pkg?", Limits()).to_dict()
        assert d["state"] == State.COMPLETE and "1.2.0" in d["answer"]
    finally:
        app.close()
