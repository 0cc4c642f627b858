from svc.retry import Other, Retry


def urlopen(retries: Retry, status: int) -> bool:
    retries.sleep()
    return retries.is_retry(status)


def other(o: Other) -> bool:
    return o.is_retry(1)


def unknown(thing):  # nothing says what `thing` is
    return thing.is_retry(2)


def make() -> Retry:
    return Retry()


def run() -> None:
    make().sleep()  # a member of a call's result
