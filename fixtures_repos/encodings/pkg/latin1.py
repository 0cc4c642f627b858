# -*- coding: latin-1 -*-
"""Module saved in Latin-1: café menu helpers."""

# Title shown in the café window.
MENU_TITLE = "Café du marché"


def menu_title():
    """Return the café menu title."""
    return MENU_TITLE
