"""Defaults of the mapping-style configuration, read by key (`config["NAME"]`)."""

default_config = {
    "MAIL_HOST": "localhost",
    "MAIL_MAX_RECIPIENTS": 50,
}
