from kinds import tokens as T


def is_verb(kind):
    return kind in T.Word.Verb
