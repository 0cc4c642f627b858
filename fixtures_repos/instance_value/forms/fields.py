from forms import widgets


class Field:
    widget = None

    def __call__(self):
        return self.widget(self)


class CountField(Field):
    widget = widgets.NumberInput(step=1)
    limit = int("10")
