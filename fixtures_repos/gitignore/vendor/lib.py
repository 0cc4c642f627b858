"""Vendored code, ignored by .codehopignore (vendor/); must not be indexed."""


def vendored():
    return "vendor"
