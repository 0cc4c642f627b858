from store.fetch import fetch_record


def test_fetch():
    assert fetch_record(" A ").value == "a"
