"""Reading a question once: its intent, its code-shaped mentions, the words that describe its
subject, the kinds it names the subject by, and the calls it rules out (`Question`).

Nothing here looks at the repository: grounding the words in the code is `grounding.py`'s job.
The intent comes from one table (`INTENTS`): each row is an intent, the stems that ask for it,
and the pointers its answer needs (what `structure.py` and the hop must bring into the context
before the answer may say `complete`). A new intent is one enum member and one row.

The word list here is the kind nouns (`KIND_WORDS`); the intents' cues are the tokenizer's
(`question_words.asks`: an intent's name and `ASKS`), and so are English function words (`STOP`). None of them names a subject. May import: records, question_words (the one tokenizer), index.terms, stdlib.
"""

from __future__ import annotations

from dataclasses import dataclass

from codehop.index.terms import stem
from codehop.kernel.records import ChunkKind, Intent, Question
from codehop.reading.question_words import ASKS, KIND_NAMES, NEGATIONS, STOP, VALUE_WORDS, Token, asks, tokenize


@dataclass(frozen=True, slots=True)
class IntentRule:
    intent: Intent
    cues: frozenset[str]  # stems of the words that ask for it
    needs: str  # the pointers its answer needs (documentation; `structure.py` follows them)


# Checked in order: the first row with a cue in the question wins; none: DEFINITION. A row's cues
# are the stems of the words that ask for its intent (`question_words.asks`: its name and `ASKS`).
_NEEDS: tuple[tuple[Intent, str], ...] = (
    (Intent.RAISES, "the classes its body raises"),
    (Intent.INHERITED, "the MRO owner of the member; a class attribute where it is assigned"),
    (Intent.VALUE, "the default's names and constants; a sentinel the body or the constructor replaces"),
    (Intent.TYPE, "its annotations and the returned type"),
    (Intent.WHY, "as `how`; the offline answer shows the code and never states a reason, so it is `partial`"),
    (Intent.CALLEES, "the callees of its body the question's terms name, else those in the repository"),
    (Intent.HOW, "the callees of its body, by the question's terms"),
    (Intent.DEFINITION, "its declaration"),
)
INTENTS: tuple[IntentRule, ...] = tuple(IntentRule(i, asks(i).stems, needs) for i, needs in _NEEDS)
_DOING = ASKS[Intent.CALLEES].stems  # weak cues of CALLEES: a "where" question uses them to describe its subject
# "what class is X", "what kind of object is X": its type is asked
KIND_OF_VALUE = frozenset({ChunkKind.CLASS.value, Intent.TYPE.value}) | VALUE_WORDS
MAX_WORDS = 64  # describing words kept (a 100 kB question is read in linear time, grounded in bounded time)

# the kind a question names its subject by ("the method that ...", "which classes ..."), by stem
KIND_WORDS: dict[str, str] = {stem(word): kind for kind, others in KIND_NAMES.items() for word in (kind, *others)}


def read_question(text: str, tokens: list[Token] | None = None) -> Question:
    """The question's one reading (linear in its length: one tokenizer pass, set lookups; a
    caller that tokenized the text already hands its tokens on)."""
    tokens = tokenize(text) if tokens is None else tokens
    mentions: list[str] = []
    words: list[str] = []
    qualifiers: list[str] = []
    conditions: list[str] = []
    owners: list[str] = []
    for t in tokens:
        if not t.word:
            continue
        if t.negated:
            conditions.append(t.text)
            continue
        if _mention(t):
            mentions.append(t.text)
            continue
        if (kind := KIND_WORDS.get(stem(t.low))) is not None:
            qualifiers.append(kind)
        if t.possessive and t.low not in STOP:
            owners.append(t.low)
        kept = t.text if t.text.isupper() else t.low  # an acronym keeps its capitals ("XML")
        if t.low not in STOP and len(t.low) > 1 and kept not in words and len(words) < MAX_WORDS:
            words.append(kept)
    return Question(
        text=text,
        intent=intent_of(tokens),
        mentions=tuple(dict.fromkeys(mentions)),
        words=tuple(words),
        qualifiers=tuple(dict.fromkeys(qualifiers)),
        conditions=tuple(dict.fromkeys(conditions)),
        owners=tuple(dict.fromkeys(owners)),
    )


def cue_stems() -> frozenset[str]:
    """The stems that say what is asked, not of what: they ground no subject."""
    return frozenset(c for rule in INTENTS for c in rule.cues)


def intent_of(tokens: list[Token]) -> Intent:
    # ("Blueprint.register calls state.add_url_rule(...). Where is that method?": a weak cue in a
    # sentence before the asking one tells the story, not what is asked)
    last = max((t.index for t in tokens if t.initial), default=0)
    stems = {s for t in tokens if t.word and not _mention(t) and ((s := stem(t.low)) not in _DOING or t.index >= last)}
    words = [t.low for t in tokens if t.word]
    if len(words) > 2 and words[0] in ("what", "which") and words[1] in KIND_OF_VALUE and words[2] in ("is", "are"):
        return Intent.TYPE  # "what class is Markdown.block.state_cls?": the kind of thing it holds
    if words and words[0] == "when" and len(words) > 1 and words[1] in ("do", "does", "is", "are", "will"):
        stems.add("call")  # "when does the middleware write to disk?": the condition and what it calls
    if words and words[0] == "where":
        stems -= _DOING  # "where is the function used to hash passwords?": its declaration is asked
    asked_unless = unless(tokens)
    for rule in INTENTS:
        if rule.cues & (stems - _DOING):
            if asked_unless and rule.intent in _BEHAVIOUR:
                # ("how long will it wait if I never give it a timeout?": what applies then is a default)
                return Intent.VALUE
            return rule.intent
    if asked_unless:
        return Intent.VALUE  # "what storage does it use if I don't pass one?": a default is asked
    for rule in INTENTS:
        if rule.cues & stems:
            return rule.intent
    return Intent.DEFINITION


_BEHAVIOUR = (Intent.HOW, Intent.WHY, Intent.CALLEES)
_CLAUSE = 8  # words of a condition read for its negation ("if I create a lock and never give it ...")


def unless(tokens: list[Token]) -> bool:
    """A condition that something is not done or given ("if I don't pass one", "unless", "when I
    never set it"): what applies then is a default."""
    for t in tokens:
        if t.low in ("if", "when", "unless") and (
            t.low == "unless" or any(u.low in NEGATIONS for u in tokens[t.index + 1 : t.index + 1 + _CLAUSE])
        ):
            return True
    return False


def _mention(t: Token) -> bool:
    """Written as code: quoted, dotted, a path, snake_case, camelCase or CamelCase, or called."""
    return t.code or (t.text[0].isupper() and not t.initial and len(t.text) > 1 and not t.text.isupper())
