import functools

from .models import Cookies, Response
from .transport import Descriptor, Transport


def logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)

    return inner


class Client:
    backup = Descriptor()

    def __init__(self) -> None:
        self._transport: Transport = Transport()
        self._cookies = Cookies()

    @property
    def cookies(self) -> Cookies:
        return self._cookies

    def transport_for(self, url: str) -> Transport:
        return self._transport

    @logged
    def send(self, url: str) -> Response:
        response = self._transport.handle_request(url)
        self.cookies.extract_cookies(response)
        return response

    def fetch(self, url: str) -> bytes:
        return self.transport_for(url).handle_request(url).read()

    def fallback(self, url: str) -> Response:
        return self.backup.handle_request(url)

    def content_types(self, url: str) -> list[str]:
        return self.send(url).headers.get_list("content-type")
