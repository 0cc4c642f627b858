This file is prose, not Python: it has a .py name and nothing else.
It says things like "def" and "class" but never in a form a parser accepts {[(
