STYLES = {
    "record.key": "bold",
    "record.value": "dim",
}


def lookup(name):
    return STYLES[name]
