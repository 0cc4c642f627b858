"""Bounded work: a query never loops past `max_loops`, never fetches more than `Limits.max_fetches`
declarations, never runs (much) past `Limits.time_budget_s`, and its give-up says which bound stopped
it (`Answer.stopped_by`: max_loops, max_fetches, time_budget, no_progress, partial).

Real indexes of fixture repositories, the real ladder and offline generator. Where a bound needs a
rung or a model that misbehaves, a small test double implements the Resolver or Generator protocol:
`Insatiable` stands in for a model that always asks for more, `Slow` for a slow third-party rung.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from codehop.answer.orchestrator import Limits, Navigator
from codehop.app import App, Config
from codehop.kernel.records import (
    Completeness,
    ContextItem,
    Generation,
    PendingReference,
    Provenance,
    Question,
    RefType,
    Resolution,
    State,
    Via,
)
from codehop.resolve.ladder import Ladder, SymbolTableResolver

FAKE_SERVER = Path(__file__).resolve().parent / "fake_lsp_servers" / "fake_server.py"


def narrow(repo: Path, **config: object) -> App:
    """Retrieval narrowed to the best hit and no graph: declarations can only arrive by a hop."""
    return App(repo, Config(retrieve_k=1, use_graph=False, **config))  # type: ignore[arg-type]


def declarations(app: App) -> list[PendingReference]:
    """A pending reference to every function and class the index declares (real, resolvable targets)."""
    refs = []
    for d in sorted(app.store.declarations(), key=lambda d: (d.rel_path, d.line)):
        scope, name, kind, rel, line = d.scope, d.name, d.kind, d.rel_path, d.line
        if kind in ("function", "class"):
            refs.append(
                PendingReference(
                    anchor_text=name,
                    ref_type=RefType.OTHER,
                    ref_target=f"{scope}.{name}",
                    origin_path=rel,
                    origin_line=line,
                )
            )
    return refs


class Insatiable:
    """A generator that is never satisfied: each turn it asks for `per_turn` references it has not had yet."""

    name = "insatiable"

    def __init__(self, refs: Sequence[PendingReference], per_turn: int = 1) -> None:
        self.refs = list(refs)
        self.per_turn = per_turn
        self.turns = 0

    def generate(
        self, question: Question, context: Sequence[ContextItem], resolved: Mapping[str, Resolution]
    ) -> Generation:
        self.turns += 1
        wanted = tuple(r for r in self.refs if r.ref_target not in resolved)[: self.per_turn]
        return Generation(
            answer=f"turn {self.turns}: still need {len(wanted)}",
            completeness=Completeness.REFERENCES_UNRESOLVED if wanted else Completeness.COMPLETE,
            pending=wanted,
        )


class Slow:
    """A rung that takes `delay_s` and then knows nothing (a slow language server, say)."""

    name = Provenance.LSP

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.calls = 0

    def resolve(self, ref: PendingReference) -> Resolution | None:
        self.calls += 1
        time.sleep(self.delay_s)
        return None


def navigator(app: App, generator: object, rungs: Sequence[object] | None = None) -> Navigator:
    nav = app.navigator()
    ladder = Ladder(list(rungs) if rungs is not None else [SymbolTableResolver(app.table)], app.table, record=False)
    return Navigator(app.store, nav.retrieve, generator, ladder)  # type: ignore[arg-type]


def fetched(answer) -> list[ContextItem]:  # type: ignore[no-untyped-def]
    return [c for c in answer.context if c.via == Via.RESOLVED]


# ---------------------------------------------------------------- max_loops


@pytest.mark.parametrize("max_loops", [0, 1, 2, 3, 5])
def test_max_loops_bounds_a_generator_that_never_finishes(fixture_repo, max_loops):
    """inherited_member: the generator asks for one more declaration every turn, for ever."""
    app = narrow(fixture_repo("inherited_member"))
    refs = declarations(app)
    assert len(refs) > 5
    gen = Insatiable(refs)
    answer = navigator(app, gen).ask("What does `MockTransport.send` do?", Limits(max_loops=max_loops))
    assert answer.stats.loops == max_loops == len(answer.hops)
    assert gen.turns == max_loops + 1
    assert answer.state is State.GIVE_UP_PARTIAL and answer.stopped_by == "max_loops"
    assert answer.to_dict()["stats"]["stopped_by"] == "max_loops"
    assert answer.pending, "a give-up lists what stayed unresolved"


@pytest.mark.parametrize(
    ("max_loops", "state", "stopped_by"),
    [
        (0, "give_up_partial", "max_loops"),
        (1, "give_up_partial", "max_loops"),
        (2, "complete", ""),
    ],
    ids=["zero", "one", "two"],
)
def test_two_link_chain_against_max_loops(fixture_repo, max_loops, state, stopped_by):
    """two_link: ProdConfig.TIMEOUT (app.py:8) needs base.py:9, then constants.py:3: two hops."""
    app = narrow(fixture_repo("two_link"))
    answer = app.navigator().ask("What is `ProdConfig.TIMEOUT`?", Limits(max_loops=max_loops))
    assert answer.stats.loops == max_loops
    assert (answer.state, answer.stopped_by) == (state, stopped_by)
    assert ("stopped_by" in answer.to_dict()["stats"]) == bool(stopped_by)


# ---------------------------------------------------------------- max_fetches


@pytest.mark.parametrize("max_fetches", [0, 1, 3])
def test_max_fetches_caps_declarations_in_one_loop(fixture_repo, max_fetches):
    """inherited_member: the generator asks for every declaration at once; at most `max_fetches` are fetched,
    the rest are reported unresolved in the hop."""
    app = narrow(fixture_repo("inherited_member"))
    refs = declarations(app)
    gen = Insatiable(refs, per_turn=len(refs))
    answer = navigator(app, gen).ask("What does `MockTransport.send` do?", Limits(max_loops=3, max_fetches=max_fetches))
    resolved = [r for h in answer.hops for r in h.resolved if not r.resolution.is_external]
    assert len(resolved) == max_fetches
    assert len(fetched(answer)) <= max_fetches
    assert answer.state is State.GIVE_UP_PARTIAL and answer.stopped_by == "max_fetches"
    assert len(answer.hops[0].unresolved) == len(refs) - max_fetches


def test_max_fetches_counts_across_loops(fixture_repo):
    """inherited_member: one new reference per turn, a cap of 2: the third loop fetches nothing and stops."""
    app = narrow(fixture_repo("inherited_member"))
    answer = navigator(app, Insatiable(declarations(app))).ask(
        "What does `MockTransport.send` do?", Limits(max_loops=6, max_fetches=2)
    )
    assert [len(h.resolved) for h in answer.hops] == [1, 1, 0]
    assert len(fetched(answer)) == 2
    assert answer.stopped_by == "max_fetches" and answer.stats.loops == 3


# ---------------------------------------------------------------- time budget


def test_time_budget_stops_a_slow_ladder_inside_one_loop(fixture_repo):
    """inherited_member: eight references in one loop, each going through a 0.3 s rung first; a 0.5 s budget
    stops the loop after the resolution that crosses it (not after all eight, ~2.4 s)."""
    app = narrow(fixture_repo("inherited_member"))
    refs = declarations(app)[:8]
    slow = Slow(0.3)
    nav = navigator(app, Insatiable(refs, per_turn=8), [slow, SymbolTableResolver(app.table)])
    t0 = time.perf_counter()
    answer = nav.ask("What does `MockTransport.send` do?", Limits(max_loops=1, time_budget_s=0.5))
    elapsed = time.perf_counter() - t0
    assert answer.stopped_by == "time_budget" and answer.state is State.GIVE_UP_PARTIAL
    assert slow.calls <= 2, "the budget is checked before each resolution"
    assert elapsed < 0.5 + 0.3 + 0.5
    (hop,) = answer.hops
    assert len(hop.resolved) == slow.calls and len(hop.unresolved) == 8 - slow.calls


def test_time_budget_is_checked_before_the_first_loop(fixture_repo):
    """reexport_chain: "Where is `shop.Cart` defined?" needs a hop; with no time left, none is taken."""
    app = narrow(fixture_repo("reexport_chain"))
    answer = app.navigator().ask("Where is `shop.Cart` defined?", Limits(max_loops=3, time_budget_s=0.0))
    assert answer.stats.loops == 0 and not answer.hops
    assert answer.stopped_by == "time_budget" and answer.pending


def test_time_budget_outranks_max_loops_when_both_hit(fixture_repo):
    """The budget ran out during the last allowed loop: the give-up names the budget."""
    app = narrow(fixture_repo("inherited_member"))
    refs = declarations(app)[:4]
    nav = navigator(app, Insatiable(refs, per_turn=4), [Slow(0.2), SymbolTableResolver(app.table)])
    answer = nav.ask("What does `MockTransport.send` do?", Limits(max_loops=1, time_budget_s=0.1))
    assert answer.stopped_by == "time_budget"


# ---------------------------------------------------------------- no_progress, partial


def test_no_progress_when_a_reference_resolves_to_nothing_new(fixture_repo):
    """circular/graphpkg/d.py: `mystery_function` is defined nowhere; a generator that insists on it gets
    one loop, nothing fetched, and `no_progress`."""
    app = narrow(fixture_repo("circular"))
    ref = PendingReference(
        anchor_text="mystery_function",
        ref_type=RefType.CALL,
        ref_target="graphpkg.d.mystery_function",
        origin_path="graphpkg/d.py",
        origin_line=8,
    )
    answer = navigator(app, Insatiable([ref])).ask("What does `mystery_function` do?", Limits(max_loops=5))
    assert answer.stats.loops == 1 and answer.stopped_by == "no_progress"
    assert answer.hops[0].unresolved == (ref,)


def test_partial_when_nothing_is_pending(fixture_repo):
    """circular: the offline generator finds no declaration and nothing to resolve: `partial`, no loop."""
    app = narrow(fixture_repo("circular"))
    answer = app.navigator().ask("What does `mystery_function` do?", Limits(max_loops=3))
    assert answer.completeness is Completeness.PARTIAL
    assert answer.stopped_by == "partial" and answer.stats.loops == 0


def test_complete_answers_carry_no_stop_reason(fixture_repo):
    app = narrow(fixture_repo("reexport_chain"))
    answer = app.navigator().ask("Where is `shop.Cart` defined?", Limits(max_loops=1))
    assert answer.state is State.COMPLETE and answer.stopped_by == ""
    assert "stopped_by" not in answer.to_dict()["stats"]


# ---------------------------------------------------------------- a dead language server in the ladder


@pytest.mark.slow
def test_language_server_that_exits_at_start_inside_a_query(fixture_repo):
    """reexport_chain, ladder lsp -> symbol_table from the App's configuration: the server exits before
    answering; each resolution records that `lsp` failed (and why), the second fails at once, and the
    query completes through the symbol table."""
    app = narrow(
        fixture_repo("reexport_chain"),
        resolvers=("lsp", "symbol_table"),
        resolver_timeout_s=5.0,
        language_server_command=(sys.executable, str(FAKE_SERVER), "exit_at_start"),
    )
    ref = PendingReference(
        anchor_text="Cart",
        ref_type=RefType.IMPORT,
        ref_target="app.Cart",
        origin_path="app.py",
        origin_line=3,
        origin_col=18,
    )
    first = app.ladder().resolve(ref)
    assert [f.resolver for f in first.failures] == ["lsp"]
    assert "exited" in first.failures[0].reason
    assert first.resolution is not None and first.resolution.provenance is Provenance.SYMBOL_TABLE
    t0 = time.perf_counter()
    second = app.ladder().resolve(ref)
    assert [f.resolver for f in second.failures] == ["lsp"] and time.perf_counter() - t0 < 1.0
    answer = app.navigator().ask("Where is `shop.Cart` defined?", Limits(max_loops=1, time_budget_s=10))
    assert answer.state is State.COMPLETE
    assert answer.hops[0].resolved[0].resolution.provenance is Provenance.SYMBOL_TABLE
    app.close()
