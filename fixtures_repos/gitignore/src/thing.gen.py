"""Generated code, ignored by .gitignore (*.gen.py); must not be indexed."""


def generated():
    return "gen"
