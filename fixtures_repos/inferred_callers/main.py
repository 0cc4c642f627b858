"""Callers the index places only by inference."""

from reg import View


def setup():
    from reg.registry import apps

    apps.populate(["a"])


def render(view: View):
    feed = view.get_feed()
    return feed.write([])


def render_direct():
    return View().get_feed().write([])


def deferred(view: View):
    def later():
        return view.get_feed().write([])

    return later


class Settings:
    written = View().get_feed().write(["s"])


if __name__ == "__main__":
    setup()
    print(render(View()), render_direct(), deferred(View())())
