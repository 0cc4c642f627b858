"""Question reading: what a question asks and about which subjects; pointer sites in retrieved code."""
