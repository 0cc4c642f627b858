from conf import config


def max_recipients() -> int:
    return int(config["MAIL_MAX_RECIPIENTS"])
