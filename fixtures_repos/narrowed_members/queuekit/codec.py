import hmac


def decode(token):
    """Turn a token back into its payload."""
    return _verify_claims(token)


def _verify_claims(token):
    _verify_aud(token)
    _verify_exp(token)
    return token


def _verify_aud(token):
    if "aud" not in token:
        raise ValueError("no aud")


def _verify_exp(token):
    return token


def signature_matches(sig, expected):
    return hmac.compare_digest(sig, expected)
