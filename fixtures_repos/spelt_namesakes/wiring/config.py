from wiring.factories import ConnectionFactory

DEFAULT_FACTORY = ConnectionFactory()


class Config:
    connection_factory = DEFAULT_FACTORY
