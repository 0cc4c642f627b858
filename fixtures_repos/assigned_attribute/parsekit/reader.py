from parsekit.parser import BlockParser


class Reader:
    def __init__(self, block=None) -> None:
        self.block = block or BlockParser()

    def read(self, text: str):
        state = self.block.state_cls()
        state.tokens = self.block.parse(text)
        return state
