class Visitor:
    def visit(self, node):
        return self.lookup(node)(node)

    def lookup(self, node):
        return getattr(self, f"visit_{type(node).__name__}", self.generic_visit)

    def generic_visit(self, node):
        return None


class Printer(Visitor):
    def visit_Name(self, node):
        return node
