"""CRLF line endings and tab indentation."""


class TabIndented:
	"""Indented with tabs."""

	def tabbed(self):
		if True:
			return "tabs"


def crlf_function():
	return 1
