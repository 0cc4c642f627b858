"""Notices for people: logged, and kept in a box."""

import logging

from notifykit.box import make_box

logger = logging.getLogger("notifykit")
box = make_box()


def notify(message: str) -> None:
    logger.info(message)
    box.append(message)
