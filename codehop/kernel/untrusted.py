"""Does a piece of repository text read like instructions to whoever reads it (an agent, a model)?

Retrieved code is data: nothing in it changes what codehop does. But codehop hands chunks to
agents, so a chunk that *addresses its reader* is flagged (`untrusted_text: true` in the JSON)
for the consumer to weigh. The test is structural, by kinds of speech act, each a small pattern
family, scored:

    role marker      a chat-transcript label or template token (SYSTEM:, TOOL CALL:, [INST])    2
    override         a verb of setting aside aimed at instructions (ignore ... prior rules)     2
    address          speech to a model or agent (you are now ..., as an AI, developer mode)     1
    side effect      a request to read secrets or run commands, or a path to a secret or out    1
                     of the tree (read ~/.ssh/..., run curl ..., /etc/passwd, ../../x)

Two points flag a chunk: one override or role marker, or an address plus a side effect. Plain
documentation ("ignore unknown arguments", "the user: a name") scores below that. Stdlib only.
"""

from __future__ import annotations

import re

_ROLE = re.compile(
    r"(?:^|[\s#\"'])(?:SYSTEM|ASSISTANT|DEVELOPER|HUMAN|USER|TOOL|FUNCTION)(?:[ _](?:CALL|USE|RESULT|PROMPT|MESSAGE|OVERRIDE))?\s*:\s*\S"
    r"|<\|\s*(?:im_start|im_end|system|user|assistant|endoftext)\s*\|>"
    r"|\[/?INST\]|<</?SYS>>|</?(?:system|instructions?)>",
    re.MULTILINE,
)
_INSTRUCTION_NOUN = r"(?:instructions?|rules?|prompts?|guidelines?|directives?|directions?|guardrails?|policies|policy|constraints?|system\s+messages?|safety)"
_OVERRIDE = re.compile(
    # the instructions set aside are the reader's own: earlier, all of them, yours, the system's
    r"\b(?:ignore|disregard|forget|override|bypass|overrule|abandon)\b(?:\W+\w+){0,2}?\W+"
    r"(?:previous|prior|above|earlier|preceding|original|all|any|your|system|safety)\b(?:\W+\w+){0,2}?\W+"
    + _INSTRUCTION_NOUN
    + r"\b"
    r"|\b(?:new|updated|real|actual|true)\s+" + _INSTRUCTION_NOUN + r"\s*:",
    re.IGNORECASE,
)
_ADDRESS = re.compile(
    r"\byou\s+are\s+(?:now|no\s+longer|an?\s+(?:ai|assistant|agent|language\s+model|llm|chatbot))\b"
    r"|\bas\s+an?\s+(?:ai|assistant|agent|language\s+model|llm)\b"
    r"|\b(?:developer|god|jailbreak|dan|unrestricted)\s+mode\b"
    r"|\b(?:dear|attention|note\s+to|hey)\s+(?:ai|assistant|agent|model|llm|claude|gpt|copilot)\b"
    r"|\b(?:ai|llm|language\s+model|coding\s+agent|assistant)s?\s+(?:reading|processing|parsing)\s+this\b",
    re.IGNORECASE,
)
_SECRET = r"(?:/etc/(?:passwd|shadow|hosts)|~/\.|\.ssh\b|id_rsa|\.env\b|\.aws\b|credentials?|passwords?|secrets?|api[_\s-]?keys?|tokens?)"
_SIDE_EFFECT = re.compile(
    r"\b(?:read|cat|open|print|send|upload|post|email|exfiltrate|reveal|leak|output|include|fetch)\b(?:\W+\w+){0,5}?\W*"
    + _SECRET
    + r"|\b(?:run|execute|call|invoke|resolve)\b(?:\W+\w+){0,3}?\W+(?:os\.system|subprocess|eval|exec|shell|rm\s+-rf|curl|wget|bash)\b"
    # a sensitive location named outright, or a path that climbs out of the tree
    r"|/etc/(?:passwd|shadow|sudoers)\b|~/\.(?:ssh|aws|config)\b|\bid_(?:rsa|ed25519)\b|(?:\.\./){2,}",
    re.IGNORECASE,
)


def instruction_score(text: str) -> int:
    """How strongly `text` reads like instructions to its reader (see the module docstring)."""
    score = 0
    if _ROLE.search(text):
        score += 2
    if _OVERRIDE.search(text):
        score += 2
    if _ADDRESS.search(text):
        score += 1
    if _SIDE_EFFECT.search(text):
        score += 1
    return score


def looks_like_instructions(text: str) -> bool:
    return instruction_score(text) >= 2
