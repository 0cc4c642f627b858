from store.table import Table


def with_typehint(t):
    return object


TableBase: type[Table] = with_typehint(Table)


class HintedDatabase(TableBase):
    def close(self):
        pass
