"""The index: walk the tree, chunk with tree-sitter, store in SQLite with a cross-reference table, the symbol table over it, installed packages."""
