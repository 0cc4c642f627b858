"""A small, normal module next to the generated huge one."""


def tiny():
    """Return a constant; proves small files are still indexed."""
    return 42
