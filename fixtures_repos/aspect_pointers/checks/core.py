from checks import formats


def pick_checker(schema):
    return StrictChecker if schema.get("strict") else LooseChecker


def validate(instance, schema, cls=None):
    """Validate an instance against a schema."""
    if cls is None:
        cls = pick_checker(schema)
    cls(schema).validate(instance)


class StrictChecker:
    def __init__(self, schema):
        self.schema = schema

    def validate(self, instance):
        for error in self.errors(instance):
            raise error

    def errors(self, instance):
        return []


class LooseChecker(StrictChecker):
    pass


def make_checker(name, format_registry=None, version=""):
    return type(name, (StrictChecker,), {"formats": format_registry, "version": version})


StrictDraft = make_checker("StrictDraft", format_registry=formats.strict_formats, version="1")


def by_weight(error):
    return len(str(error))


def worst_error(errors, key=by_weight):
    return max(errors, key=key)


DEFAULT_LOADER = StrictChecker({})


def load(text, loader=None):
    if loader:
        return loader.validate(text)
    else:
        return DEFAULT_LOADER.validate(text)


class Rule:
    def __init__(self, conditions):
        self.conditions = conditions

    def passes(self, data):
        for cond in self.conditions:
            if not cond.check(data):
                return False
        return True

    def context_of(self):
        return getattr(self.conditions, "context", None)


check = DEFAULT_LOADER.validate


def error_report(errors):
    return sorted(str(e) for e in errors)


def summarize(errors):
    report = error_report(errors)
    return len(report)


class Guard:
    def allows(self, data):
        return data is not None


class Gate:
    def __init__(self):
        self.guards = [Guard()]

    def opens(self, data):
        for guard in self.guards:
            if not guard.allows(data):
                return False
        return True
