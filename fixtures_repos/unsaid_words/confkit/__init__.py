"""A tiny settings kit: nested configs addressed by dotted keys."""
