"""Project configuration package."""
