try:
    import ssl
except ImportError:
    pass
else:

    class SecureConnection:
        """Only when ssl imports."""

        def handshake(self):
            return ssl.PROTOCOL_TLS_CLIENT


class TlsConnection(SecureConnection):
    pass
