"""A base class a type checker sees and the interpreter does not (fixture `typed_base`, see
fixtures_repos/README.md): `TableBase` bound twice in store/checked.py (`= Table` under
`if TYPE_CHECKING:` at :6, `= object` at :8), and annotated `TableBase: type[Table] = with_typehint(Table)`
in store/hinted.py:8. Members of `Table` (store/table.py:1, `insert` at :2) are read through it."""

from __future__ import annotations

import pytest
from shared import ask, fixture_app

from codehop.app import App
from codehop.kernel.records import State


@pytest.fixture(scope="module")
def app(tmp_path_factory):  # type: ignore[no-untyped-def]
    yield from fixture_app("typed_base", tmp_path_factory)


@pytest.mark.parametrize("cls", ["CheckedDatabase", "HintedDatabase"])
def test_a_member_is_found_through_the_base_a_type_checker_sees(app: App, cls: str) -> None:
    a = ask(app, f"where is {cls}.insert defined?")
    assert a.state is State.COMPLETE
    assert "is declared at store/table.py:2" in a.answer
    assert "outside the repository" not in a.answer
