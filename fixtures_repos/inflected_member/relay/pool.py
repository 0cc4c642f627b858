class Pool:
    def request(self, url: str) -> str:
        """Build a request and send it."""
        return self.handle_request(url)

    def handle_request(self, url: str) -> str:
        """Pick the connection that sends the request."""
        return self.connect_tcp(url.partition("/")[0])

    def connect_tcp(self, host: str) -> str:
        return f"tcp://{host}"

    def is_retry(self, method: str, status_code: int) -> bool:
        return method == "GET" and status_code in (502, 503)
