from queues.queue import Queue

__all__ = ["Queue"]
