from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .client import Client

try:
    from ._speedups import fast_join as join_parts
except ImportError:
    from ._pure import join_parts


class Headers:
    def get_list(self, key: str) -> list[str]:
        return [key]


class Cookies:
    def extract_cookies(self, response: "Response") -> None:
        self.last = response


class Response:
    def __init__(self, client: "Client | None" = None) -> None:
        self.headers = Headers()
        self.client = client

    def read(self) -> bytes:
        return join_parts(["a", "b"]).encode()
