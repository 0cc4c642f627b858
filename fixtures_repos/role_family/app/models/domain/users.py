class User:
    """A user as the database stores it."""

    username: str = ""
    email: str = ""
    hashed_password: str = ""
