"""Convertors."""


class Convertor:
    def convert(self, value):
        return str(value)


def default_convertor():
    return Convertor()
