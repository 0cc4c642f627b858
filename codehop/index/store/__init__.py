"""The SQLite store: the one place codehop's SQL lives, handing out records.

- `schema.py`  the index file: tables and indexes, version check, opening (read-only when it
               cannot be written), damage checks, moving a bad file aside.
- `sqlite.py`  `SqliteStore`: per-thread connections, the read snapshot, every read a query
               makes (records out), mounted package indexes, a query's one write after its
               snapshot (`record_query`).
- `write.py`   the indexer's SQL inside its write transaction (bulk rows as tuples).
- `rows.py`    one converter per record between a table's row and codehop's record (the
               parser's rows share the layouts).

Importers name the submodule they use: importing the package loads nothing, so the schema
(a no-change `codehop index`) comes without the readers, writers and records.
May import: records, errors, words, terms (index time), stdlib (sqlite3).
"""
