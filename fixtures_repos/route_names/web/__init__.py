from web import users  # noqa: F401  (registers the routes)
