"""Resolution: the ladder (symbol table, Jedi, a language server) that turns a pending reference into a declaration."""
