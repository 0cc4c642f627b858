from store.fetch import fetch_record as get


def run_all(keys):
    return [get(k) for k in keys]
