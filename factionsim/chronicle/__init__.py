"""Events -> words and pictures. The chronicle reads only events (and the names of things)."""

from factionsim.chronicle.markdown import Names, render_markdown

__all__ = ["Names", "render_markdown"]
