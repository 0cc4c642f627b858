"""The application."""
