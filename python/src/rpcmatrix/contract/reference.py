"""The contract's behaviour (CONTRACT.md#operations): servers delegate to it, clients check answers with it.

It must cost little next to a call's transport, so that a figure measures the protocol: float64 arrays are
computed with numpy and answered as read-only-by-convention float64 `numpy.ndarray`s (each adapter converts
them in bulk: `tobytes()`, `tolist()`), and the answers built from many small draws (getRecord, searchBooks,
getItems) are cached per argument, which the contract allows since they depend on their arguments only.
Callers must not mutate what they get back.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

import numpy as np

from rpcmatrix.contract.generator import SplitMix64, fnv1a64
from rpcmatrix.contract.model import BenchError, Book, Item, Record
from rpcmatrix.contract.scalars import to_float32

NEGATIVE_COUNT = "count must not be negative"


def _check_count(count: int) -> None:
    if count < 0:
        raise BenchError(400, NEGATIVE_COUNT)


def as_float64_array(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """`values` as a float64 array: no copy for an array; one bulk conversion for a list or a protobuf
    repeated field."""
    return np.asarray(values, dtype=np.float64)


def handler_arguments(params: Sequence[str], args: list) -> list:
    """The arguments of one operation (its parameter types `params`) as the reference is timed on them in
    process (the handler figure): float64[] ones as float64 arrays, the form the raw TCP codec decodes. A
    stack that decodes a list pays the one bulk conversion (`as_float64_array`) as part of its own
    unmarshalling, as Java's and .NET's unmarshallers build their double[]: timed on a list, the handler
    would charge every Python server that conversion, the raw TCP one included."""
    return [as_float64_array(a) if t == "float64[]" else a for t, a in zip(params, args, strict=True)]


# Answers kept per argument are bounded in count and in size, so arbitrary arguments cannot exhaust memory.
_CACHED_UP_TO = 10_000


class ReferenceBench:
    """Every operation of the contract, in snake_case. Thread-safe: it keeps no state between calls
    except the immutable-by-convention cache of getItems lists (CONTRACT.md allows caching them)."""

    def ping(self) -> None:
        return None

    def echo_bool(self, value: bool) -> bool:
        return value

    def echo_int8(self, value: int) -> int:
        return value

    def echo_int16(self, value: int) -> int:
        return value

    def echo_int32(self, value: int) -> int:
        return value

    def echo_int64(self, value: int) -> int:
        return value

    def echo_float32(self, value: float) -> float:
        return value

    def echo_float64(self, value: float) -> float:
        return value

    def echo_string(self, value: str) -> str:
        return value

    def echo_bytes(self, value: bytes) -> bytes:
        return value

    def is_prime(self, n: int) -> bool:
        if n < 2:
            return False
        if n % 2 == 0:
            return n == 2
        d = 3
        while d * d <= n:
            if n % d == 0:
                return False
            d += 2
        return True

    def average(self, values: Sequence[float] | np.ndarray) -> float:
        if len(values) == 0:
            return 0.0
        # Left to right in float64, as the contract says. np.sum is pairwise, sum() compensated (3.12+),
        # math.fsum exactly rounded; a cumulative sum is the sequential one. Starting from +0.0 as the
        # contract's loop does only matters when every value is -0.0: "+ 0.0" turns that -0.0 into +0.0.
        total = np.cumsum(as_float64_array(values))[-1] + 0.0
        return float(total / len(values))

    def random_doubles(self, count: int, seed: int) -> np.ndarray:
        _check_count(count)
        return SplitMix64(seed).doubles(count)

    def log_transform(self, values: Sequence[float] | np.ndarray) -> np.ndarray:
        # IEEE 754 as the other languages answer: log(0) = -inf and log(negative) = NaN, without warnings.
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(as_float64_array(values))

    def get_record(self, key: str) -> Record:
        return _record(key)

    def search_books(self, query: str, count: int) -> list[Book]:
        _check_count(count)
        if count > _CACHED_UP_TO:
            return _books(query, count)
        return _cached_books(query, count)

    def get_items(self, count: int) -> list[Item]:
        _check_count(count)
        return _items(count)

    def fail(self, code: int, message: str) -> None:
        raise BenchError(code, message)

    def random_doubles_stream(self, count: int, seed: int, chunk: int) -> Iterator[np.ndarray]:
        _check_count(count)
        if chunk <= 0:
            raise BenchError(400, "chunk must be positive")
        return _chunks(SplitMix64(seed), count, chunk)


def _chunks(rng: SplitMix64, count: int, chunk: int) -> Iterator[np.ndarray]:
    remaining = count
    while remaining > 0:
        size = min(chunk, remaining)
        yield rng.doubles(size)
        remaining -= size


@lru_cache(maxsize=256)
def _record(key: str) -> Record:
    rng = SplitMix64(fnv1a64(key.encode("utf-8")))
    record_id = rng.signed64()
    tags = [rng.word(12) for _ in range(8)]
    values = [rng.next_double() * 1000.0 for _ in range(16)]
    return Record(record_id, tags, values)


def _books(query: str, count: int) -> list[Book]:
    rng = SplitMix64(fnv1a64(query.encode("utf-8")))
    return [_book(rng) for _ in range(count)]


_cached_books = lru_cache(maxsize=32)(_books)


def _book(rng: SplitMix64) -> Book:
    title = rng.word(40)
    authors = [rng.word(20) for _ in range(1 + rng.below(3))]
    price = rng.below(10000) / 100.0
    list_price = price + rng.below(5000) / 100.0
    publisher = rng.word(24)
    year = 1950 + rng.below(76)
    month = 1 + rng.below(12)
    keywords = [rng.word(10) for _ in range(rng.below(6))]
    isbn = "978" + "".join(str(rng.below(10)) for _ in range(10))
    star_rating = rng.below(6)
    url = "https://books.example.org/isbn/" + isbn
    return Book(title, authors, price, list_price, publisher, year, month, keywords, isbn, star_rating, url)


# Gredler's lists were static, so a server may cache them (CONTRACT.md#generated-data).
@lru_cache(maxsize=16)
def _items(count: int) -> list[Item]:
    rng = SplitMix64(count)
    items = []
    for _ in range(count):
        item_id = rng.signed64()
        title = rng.word(40)
        description = rng.word(40)
        category = rng.word(40)
        owner = rng.word(40)
        created = 1000000000000 + rng.below(1000000000000)
        updated = created + rng.below(1000000000)
        quantity = rng.signed32()
        price = rng.next_double() * 1000000.0
        weight = to_float32(rng.next_double())
        items.append(Item(item_id, title, description, category, owner, created, updated, quantity, price,
                          weight))
    return items
