"""Example application reading both kinds of settings."""

from config.settings import prod
from config.appsettings import ProdSettings


def describe():
    return {
        "timeout": prod.TIMEOUT,
        "debug": prod.DEBUG,
        "retries": ProdSettings.retries,
        "verbose": ProdSettings.verbose,
    }


if __name__ == "__main__":
    print(describe())
