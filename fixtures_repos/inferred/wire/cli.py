try:
    from ._pure import join_parts as main
except ImportError:  # the extras are missing: a stub that says so

    def main() -> None:
        raise SystemExit("install the extras")
