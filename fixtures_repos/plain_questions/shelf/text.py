def split(text, strip_semicolon=False):
    parts = text.split(";")
    return [p.strip() for p in parts] if strip_semicolon else parts


def serve(host, use_reloader=False, reloader_type="auto"):
    return (host, use_reloader, reloader_type)
