"""What reading a question yields: its subjects (the declarations it asks about), the members
it names that do not exist (`Absent`), and the whole `Reading` with the doubts it leaves.

May import: records, signatures, stdlib.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codehop.reading.signatures import Parameter


@dataclass(frozen=True, slots=True, kw_only=True)
class Subject:
    dotted: str  # absolute dotted path the question is about
    mentions: tuple[str, ...]  # the words of the question it was built from
    strong: bool = True  # named by the question (coverage needs it), not only suggested by a plain word
    parameter: Parameter | None = None  # asked about a parameter of the callable `dotted`
    forwarded: tuple[tuple[str, str, int], ...] = ()  # (callee, origin path, line) of **kwargs hops
    assigned: tuple[int, str] | None = None  # (line, text) of `self.x = ...` in `dotted`


@dataclass(frozen=True, slots=True, kw_only=True)
class Absent:
    """A member the question names that the class does not have, on itself or any indexed base."""

    owner: str  # the class (or module) it was looked up on
    member: str
    members: tuple[str, ...]  # public names the owner does have
    external_bases: tuple[str, ...]  # bases outside the repository that may hold it
    owner_at: str = ""  # where the owner is declared (path:line)
    inherited: bool = False  # Python itself says the outside base defines it (`dict.get`)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    subjects: tuple[Subject, ...]
    absent: tuple[Absent, ...] = ()
    unplaced: tuple[str, ...] = ()  # content words that matched nothing, when a member seemed asked for
    external: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (class, external bases) asked about a member
    operations: tuple[str, ...] = field(default=())  # data-model operations recognised
    owners: tuple[str, ...] = ()  # the classes the question names, as read
    result_members: tuple[str, ...] = ()  # names written after a call (`get_console().print_json`)
    several: tuple[str, ...] = ()  # a parameter named alone that several callables take, with different defaults
    bases: bool = False  # the question asks what a class inherits from ("the base class of X", "X inherits from")
    negated: tuple[str, ...] = ()  # names whose call the question rules out ("if I never call configure()")
    close: tuple[str, ...] = ()  # declarations the words came close to naming, when none was clear
    unexplained: tuple[str, ...] = ()  # the words the closest does not explain
    unplaced_value: str = ""  # a value or default asked, and the words found only this callable

    @property
    def doubts(self) -> tuple[str, ...]:
        """Why the reader cannot call its reading complete, one sentence each."""
        out: list[str] = []
        for a in self.absent:
            head = f"`{a.owner}`" + (f" ({a.owner_at})" if a.owner_at else "") + f" has no member `{a.member}`"
            if a.external_bases == ("object",):
                head = (
                    f"`{a.owner}`"
                    + (f" ({a.owner_at})" if a.owner_at else "")
                    + f" defines no `{a.member}`, nor does any base in the repository: Python's default "
                    f"(from `object`) applies"
                )
            elif a.inherited:
                head += (
                    f" in the indexed code; it is inherited from `{a.external_bases[0]}`, outside the "
                    f"repository (not indexed)"
                )
            elif a.external_bases:
                head += (
                    f" in the indexed code; it may come from "
                    f"{', '.join(f'`{b}`' for b in a.external_bases)}, outside the repository"
                )
            if a.members:
                shown = ", ".join(f"`{m}`" for m in a.members[:12])
                head += f"; its members are {shown}" + (" …" if len(a.members) > 12 else "")
            out.append(head + ".")
        for cls, bases in self.external:
            out.append(
                f"`{cls}` inherits from {', '.join(f'`{b}`' for b in bases)}, outside the repository; "
                f"what the question asks may be declared there (not indexed)."
            )
        if self.several:
            out.append(
                f"`{self.several[0]}` is a parameter of several callables with different defaults: "
                + ", ".join(self.several[1:])
                + "; the question does not say which."
            )
        for name in self.negated:
            out.append(
                f"The question rules out calling `{name}`: what applies without it (a default set elsewhere) "
                f"is not placed by this reading."
            )
        if self.unplaced_value:
            out.append(
                f"The question asks for a value or a default; its words describe `{self.unplaced_value}`, a "
                "callable, and name none of its parameters or values."
            )
        if self.close and not self.subjects and not self.unplaced_value:
            out.append(
                "The question's words name no declaration clearly; the closest are "
                + ", ".join(f"`{c}`" for c in self.close)
                + (
                    f" (the first does not explain {', '.join(repr(w) for w in self.unexplained[:12])})"
                    if self.unexplained
                    else ""
                )
                + "."
            )
        code = [w for w in self.unplaced if _code_shaped(w)]
        plain = [w for w in self.unplaced if not _code_shaped(w)]
        if code:
            out.append(f"Not understood (no declaration matches): {_shown(code)}.")
        if plain:
            # (an ordinary word is never "not understood": what it asks is what is not placed)
            of = ", ".join(f"`{o}`" for o in self.owners[:3]) or "what was read"
            out.append(
                f"What the words {_shown(plain)} ask of {of} is not placed: no declaration here is named by them."
            )
        return tuple(out)


def _shown(words: list[str]) -> str:
    return ", ".join(f"'{w}'" for w in words[:12]) + (" …" if len(words) > 12 else "")


def _code_shaped(word: str) -> bool:
    """A name written as code (`max_size`, `pkg.mod`, `maxSize`, `get()`), not an ordinary word
    ("Linux", "HTML", "entries")."""
    return (
        "_" in word
        or "." in word
        or "(" in word
        or any(c.isupper() for c in word[1:])
        and any(c.islower() for c in word)
    )
