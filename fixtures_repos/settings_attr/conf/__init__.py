"""Settings: the defaults of conf/global_settings.py, read by attribute (`settings.NAME`)."""

from conf import defaults, global_settings


class Settings:
    def __init__(self) -> None:
        for name in dir(global_settings):
            if name.isupper():
                setattr(self, name, getattr(global_settings, name))


settings = Settings()

config = dict(defaults.default_config)
