"""State machines, some of them locked."""
