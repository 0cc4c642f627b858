from parsekit.parser import BlockParser
from parsekit.result import BaseResult, TokenResult


class Reader:
    result_class = TokenResult

    def __init__(self, block=None) -> None:
        self.block = block or BlockParser()

    def read(self, text: str):
        state = self.block.state_cls()
        state.tokens = self.block.parse(text)
        return state

    @property
    def result(self) -> BaseResult:
        return self.result_class(self.read("").tokens)
