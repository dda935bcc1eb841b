"""Vectors drawn afresh for each certification: the computed operations' arguments (seeds, counts, keys, queries,
numbers) and an echo and an error whose values no earlier run sent. A server that replays answers recorded from
an earlier run has none for these, and one that only echoes cannot compute them; the certificate records what was
drawn. Each is an ordinary vector of idl/vectors.json's form (idl/CONTRACT.md#vectors), so every client checks it
with the contract's own rules, with no code of its own."""
import secrets

# Characters every protocol of the registry carries: no C0 controls (XML 1.0), no lone surrogates; some outside
# ASCII and one outside the Basic Multilingual Plane, so that a server's string handling is exercised too.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -_.,:;!?<&>'\"/éßжλ中🔑"
SEED_BITS = 52  # seeds inside generator forms stay below 2^53, which JSON numbers hold exactly


def _text(rng: secrets.SystemRandom, low: int, high: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(low, high)))


def _int64(rng: secrets.SystemRandom) -> str:
    return str(rng.randint(-(2 ** 63), 2 ** 63 - 1))


def draw(rng: secrets.SystemRandom | None = None) -> list[dict]:
    """One certification's fresh vectors, ids `fresh_*`, in the order clients send them."""
    rng = rng or secrets.SystemRandom()
    code = rng.randint(-(2 ** 31), 2 ** 31 - 1)
    stream_count = rng.randint(1, 3000)
    return [
        {"id": "fresh_echo_string", "op": "echoString", "args": [_text(rng, 16, 48)]},
        {"id": "fresh_echo_int32", "op": "echoInt32", "args": [rng.randint(-(2 ** 31), 2 ** 31 - 1)]},
        {"id": "fresh_is_prime", "op": "isPrime", "args": [rng.randint(2, 2 ** 31 - 1)], "expect": "contract"},
        {"id": "fresh_average", "op": "average",
         "args": [{"randomDoubles": {"count": rng.randint(1, 512), "seed": rng.getrandbits(SEED_BITS)}}],
         "expect": "contract"},
        {"id": "fresh_random_doubles", "op": "randomDoubles", "args": [rng.randint(1, 512), _int64(rng)],
         "expect": "contract"},
        {"id": "fresh_log_transform", "op": "logTransform",
         "args": [{"randomDoubles": {"count": rng.randint(1, 512), "seed": rng.getrandbits(SEED_BITS),
                                     "offset": float(rng.randint(1, 1000))}}],
         "expect": "contract"},
        {"id": "fresh_record", "op": "getRecord", "args": [_text(rng, 8, 32)], "expect": "contract"},
        {"id": "fresh_books", "op": "searchBooks", "args": [_text(rng, 8, 32), rng.randint(1, 8)],
         "expect": "contract"},
        {"id": "fresh_items", "op": "getItems", "args": [rng.randint(1, 200)], "expect": "contract"},
        {"id": "fresh_fail", "op": "fail", "args": [code, (message := _text(rng, 8, 40))],
         "expect_error": {"code": code, "message": message}},
        {"id": "fresh_random_doubles_stream", "op": "randomDoublesStream",
         "args": [stream_count, _int64(rng), rng.randint(1, 400)], "expect": "contract"},
    ]
