class Retry:
    def is_retry(self, status_code: int) -> bool:
        return status_code >= 500

    def sleep(self) -> None:
        pass


class Other:
    def is_retry(self, status_code: int) -> bool:
        return False
