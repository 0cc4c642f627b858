def join_parts(parts: list[str]) -> str:
    return "".join(parts)
