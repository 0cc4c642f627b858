"""Excerpts of stored chunks keep their chunk's id and say which part they hold: a chunk, its
fitted copy and a slice of it are three context items, told apart by `Chunk.key` (no synthetic
negative ids). Fixture: inherited_config (its largest stored chunk, sliced and fitted)."""

from __future__ import annotations

from codehop.answer.retrieval import count_tokens, pack
from codehop.app import App, Config
from codehop.kernel.records import ChunkPart, ContextItem, Via
from codehop.navigation.excerpt import fit, slice_chunk


def _item(chunk) -> ContextItem:  # type: ignore[no-untyped-def]
    return ContextItem(chunk=chunk, hop=0, via=Via.BM25, tokens=count_tokens(chunk.text))


def test_parts_of_one_chunk_are_distinct_items(fixture_repo):  # type: ignore[no-untyped-def]
    app = App(fixture_repo("inherited_config"), Config(use_graph=False, use_env=False))
    chunk = max((c for c in app.store.search("settings OR config OR base", 50)), key=lambda h: len(h[0].text))[0]
    assert chunk.part is ChunkPart.WHOLE and chunk.end_line > chunk.start_line
    cut = slice_chunk(chunk, chunk.start_line + 1, chunk.start_line + 1, chunk.qualname + ".x")
    fitted = fit(chunk, 8)
    assert cut.chunk_id == fitted.chunk_id == chunk.chunk_id  # the stored row they come from
    assert (cut.part, fitted.part) == (ChunkPart.SLICE, ChunkPart.FITTED)
    assert len({chunk.key, cut.key, fitted.key}) == 3
    assert fit(cut, 1).key == cut.key and fit(fitted, 4).key == fitted.key  # fitting again keeps the part
    # the packer keeps a slice next to its whole chunk (a fitted copy starts where its chunk does:
    # one of the two is enough)
    kept = pack([_item(chunk)], 10_000, required=[_item(cut)])
    assert [k.chunk.part for k in kept] == [ChunkPart.SLICE, ChunkPart.WHOLE]
    kept = pack([_item(chunk)], 10_000, required=[_item(fitted)])
    assert [k.chunk.part for k in kept] == [ChunkPart.FITTED]
    app.close()
