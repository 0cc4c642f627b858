"""A small account service whose questions are asked in words."""
