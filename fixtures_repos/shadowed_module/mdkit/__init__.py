"""A tiny markdown kit: `mdkit.render` is the function below, not the submodule."""

from mdkit.render import Renderer


def render(text: str, escape: bool = True) -> str:
    """Render `text` to HTML, escaping raw HTML unless told not to."""
    return Renderer(escape=escape).run(text)
