__version__: str


__version__ = "1.2.0"
