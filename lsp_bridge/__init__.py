"""A stdio LSP client for language servers (basedpyright, jedi-language-server): a library that knows
nothing of codehop. codehop's own LSP server for editors is :mod:`codehop.frontends.lsp_server`."""
