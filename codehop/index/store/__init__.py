"""The SQLite store: the one place codehop's SQL lives, handing out records.

- `schema.py`  the index file: tables and indexes, version check, opening (read-only when it
               cannot be written), damage checks, moving a bad file aside.
- `sqlite.py`  `SqliteStore`: per-thread connections, the read snapshot, every read a query
               makes (records out), mounted package indexes, a query's one write after its
               snapshot (`record_query`).
- `write.py`   the indexer's SQL inside its write transaction (bulk rows as tuples).

Importers name what they use from `codehop.index.store`; the split is this package's own.
May import: records, errors, words, stdlib (sqlite3).
"""

from codehop.index.store.schema import (
    SCHEMA_VERSION,
    check_schema,
    connect,
    create_indexes,
    create_schema,
    damage,
    move_aside,
    not_writable,
)
from codehop.index.store.sqlite import MOUNT_SPAN, Mount, SqliteStore, SymbolRows, WriteInSnapshotError, symbol_rows_of
from codehop.index.store.write import (
    FTS_STAGE,
    LoadedRows,
    add_to_counter,
    binding_lines,
    bump_generation,
    class_qualnames,
    declaration_rows,
    delete_edges,
    delete_files,
    enable_wal,
    file_interface,
    fill_fts,
    insert_edges,
    insert_resolved_xrefs,
    modules_by_path,
    paths_referring_into,
    remember_landing,
    set_xref_targets,
    shift_targets,
    stage_fts,
    stamp_edges,
    touch_file,
    write_file_rows,
    xref_sites,
    xref_targets,
)

__all__ = [
    "FTS_STAGE",
    "MOUNT_SPAN",
    "LoadedRows",
    "SCHEMA_VERSION",
    "Mount",
    "SqliteStore",
    "SymbolRows",
    "WriteInSnapshotError",
    "add_to_counter",
    "binding_lines",
    "bump_generation",
    "check_schema",
    "class_qualnames",
    "connect",
    "create_indexes",
    "create_schema",
    "damage",
    "declaration_rows",
    "delete_edges",
    "delete_files",
    "enable_wal",
    "file_interface",
    "fill_fts",
    "insert_edges",
    "insert_resolved_xrefs",
    "modules_by_path",
    "move_aside",
    "not_writable",
    "paths_referring_into",
    "remember_landing",
    "set_xref_targets",
    "shift_targets",
    "stage_fts",
    "stamp_edges",
    "symbol_rows_of",
    "touch_file",
    "write_file_rows",
    "xref_sites",
    "xref_targets",
]
