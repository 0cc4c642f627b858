try:
    from ._fastcli import main
except ImportError:  # the extras are not installed

    def main():
        return "install the cli extras"
