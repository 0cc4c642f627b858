from parsekit.state import BlockState


class BlockParser:
    state_cls = BlockState

    def parse(self, text: str) -> list[str]:
        return text.split()
