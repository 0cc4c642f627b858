import hashlib

SALT_ROUNDS = 12


def get_password_hash(password: str) -> str:
    """Hash a plain password for storage."""
    return _digest(password, rounds=SALT_ROUNDS)


def verify_password(plain: str, hashed: str) -> bool:
    """Check a plain password against its stored hash."""
    return get_password_hash(plain) == hashed


def _digest(text: str, rounds: int) -> str:
    out = text.encode()
    for _ in range(rounds):
        out = hashlib.sha256(out).digest()
    return out.hex()
