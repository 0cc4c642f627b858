"""A feed and the view that builds one."""


class Feed:
    def write(self, out):
        return out


class View:
    def get_feed(self) -> Feed:
        return Feed()
