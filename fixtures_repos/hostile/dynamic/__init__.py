"""Names built at run time."""
