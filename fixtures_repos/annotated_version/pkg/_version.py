__version__: str
version: str

__version__ = version = "1.2.0"
