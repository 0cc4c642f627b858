"""Navigation: who calls, who uses, what subclasses, what overrides, the blast radius and the
hierarchy, over the index (no question reading, no generation).

One entry point, `engine.Navigation`: the door (codehop.app) builds it from what it keeps warm
(`cursor.Sources`) and the LSP server and MCP reach it only through the door; the answer layer
reads the same dependents engine (`dependents.DependentsFinder`, records in `sites`) and the
blast radius (`manifest`). Below answer, beside reading: may import kernel, index, resolve,
graphs. Nothing is re-exported here (importers name the submodule).
"""
