class Live:
    """A live display."""


if __name__ == "__main__":  # a demo, run as a script only: importers never see this binding
    from wire.live import Live

    Live()
