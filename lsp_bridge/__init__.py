"""Bridges to language servers; see :mod:`lsp_bridge.client` for the stdio LSP client."""
