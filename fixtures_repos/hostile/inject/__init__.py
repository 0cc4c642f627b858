"""A ledger whose sources carry prompt-injection text."""
