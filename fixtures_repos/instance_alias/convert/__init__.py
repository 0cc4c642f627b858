from convert.converters import Converter

default_converter = Converter()

structure = default_converter.structure
