"""Package whose huge module is generated at test time."""
