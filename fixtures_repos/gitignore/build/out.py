"""Build output, ignored by .gitignore (build/); must not be indexed."""


def built():
    return "build"
