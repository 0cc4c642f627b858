class Input:
    """Renders an <input> tag."""

    input_type = "text"

    def __call__(self, field):
        return f'<input type="{self.input_type}" name="{field.name}">'


class NumberInput(Input):
    """Renders an <input type="number">."""

    input_type = "number"

    def __init__(self, step=None):
        self.step = step
