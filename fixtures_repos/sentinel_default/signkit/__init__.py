"""Sign payloads with a scheme picked by the caller, or one chosen for them."""
