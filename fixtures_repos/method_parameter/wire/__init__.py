from wire.streams import ByteReceiveStream

__all__ = ["ByteReceiveStream"]
