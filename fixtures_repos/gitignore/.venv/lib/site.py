"""Inside a virtualenv (.venv has pyvenv.cfg); must not be indexed."""


def site_hook():
    return "venv"
