"""A triple-quoted string that never ends."""


def before_unterminated():
    return 6


TEXT = """this string is never closed

def inside_the_string():
    return 7
