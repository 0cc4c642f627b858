"""Navigation: who calls, who uses, what subclasses, what overrides, the blast radius and the
hierarchy, over the index (no question reading, no generation).

Below the answer layer and beside it for the front-ends: the door (codehop.app) hands each
operation what it reads, the answer layer asks it for dependents and blast radii. May import:
kernel, index, resolve, graphs. Nothing is re-exported here (importers name the submodule).
"""
