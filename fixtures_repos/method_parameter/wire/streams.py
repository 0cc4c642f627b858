class ByteReceiveStream:
    def __init__(self, data: bytes) -> None:
        self._data = data

    def receive(self, max_bytes: int = 65536) -> bytes:
        chunk, self._data = self._data[:max_bytes], self._data[max_bytes:]
        return chunk

    def close(self) -> None:
        self._data = b""
