class Transport:
    def handle_request(self, url: str) -> "Response":
        from .models import Response

        return Response()


class Descriptor:
    def __get__(self, obj, owner=None) -> "Transport":
        return Transport()
