"""A small FastAPI shop: users, articles, tokens."""
