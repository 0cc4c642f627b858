"""Sending mail; how long to wait comes from the settings."""

from conf import settings


def send_mail(to: str, body: str) -> dict[str, object]:
    timeout = settings.EMAIL_TIMEOUT
    return {"to": to, "body": body, "timeout": timeout}


if __name__ == "__main__":
    print(send_mail("a@example.org", "hello"))
