"""Where the money is kept."""


class Vault:
    """Holds a balance."""

    def balance(self):
        """Return the vault's balance in cents."""
        return 0
