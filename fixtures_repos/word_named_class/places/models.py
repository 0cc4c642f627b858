class Origin:
    def __init__(self, scheme: str, host: str) -> None:
        self.scheme = scheme
        self.host = host

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Origin) and (self.scheme, self.host) == (other.scheme, other.host)


def origin_of(url: str) -> Origin:
    scheme, _, host = url.partition("://")
    return Origin(scheme, host)
