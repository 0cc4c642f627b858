"""Front-ends: the CLI, the MCP server, the LSP server and the one renderer; they go through the door (codehop.app)."""
