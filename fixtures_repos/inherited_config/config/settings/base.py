"""Settings shared by every environment."""

DEBUG = True
TIMEOUT = 30
ALLOWED_HOSTS = ["localhost"]
DATABASE_URL = "sqlite:///dev.db"
