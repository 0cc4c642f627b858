class BaseConverter:
    def structure(self, obj: object, cl: type) -> object:
        """Turn plain data into an instance of `cl`."""
        return cl(obj)


class Converter(BaseConverter):
    def unstructure(self, obj: object) -> object:
        return vars(obj)

    def get_structure_hook(self, cl: type) -> object:
        """The function that structures `cl`."""
        return self.structure
