"""Package that tests extend with a symlink pointing outside the repo."""
