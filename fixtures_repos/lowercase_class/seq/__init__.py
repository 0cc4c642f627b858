from seq.more import *  # noqa: F403
