"""Note-taking service."""
