"""Example client that talks through a mock transport."""

from transport import MockTransport


def echo(request):
    return {"status": 200, "echo": request}


def main():
    with MockTransport(echo) as transport:
        response = transport.send("GET /", timeout=1.0)
        transport.close()
    return response


if __name__ == "__main__":
    print(main())
