from docs.document import Document


def loads(text: str) -> Document:
    return Document(text)
