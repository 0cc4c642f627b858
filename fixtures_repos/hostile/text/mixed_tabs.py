"""Tabs and spaces mixed in one block (a TabError for CPython)."""


def mixed_indent():
    a = 1
	return a


def after_mixed():
    return 2
