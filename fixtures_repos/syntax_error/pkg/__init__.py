"""Package with one module that does not parse."""
