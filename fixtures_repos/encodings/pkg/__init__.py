"""Package mixing text encodings and a binary file."""
