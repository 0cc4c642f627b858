from store import Record, fetch_record


def run():
    record = fetch_record("a")
    return record.describe()


def make(key):
    return Record(key, None)
