import math

import pytest

from rpcmatrix.contract.generator import SplitMix64, fnv1a64
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.contract.scalars import is_float32

bench = ReferenceBench()


def test_is_prime():
    assert [n for n in range(-3, 30) if bench.is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    assert bench.is_prime(2147483647)
    assert not bench.is_prime(2147483646)
    assert not bench.is_prime(-7)


def test_average_sums_left_to_right():
    assert bench.average([]) == 0.0
    assert bench.average([1.0, 2.0, 4.5]) == 2.5
    # Left to right: (1e16 + 1.0) + 1.0 loses both ones; a compensated sum would keep them.
    assert bench.average([1e16, 1.0, 1.0]) == 1e16 / 3
    # Pairwise summation (np.sum) would differ here: 1e16 + (1 + 1) keeps the ones.
    assert bench.average([1e16, 1.0, 1.0, 0.0]) == 1e16 / 4
    # The contract's loop starts from +0.0, so a sum of negative zeros is +0.0.
    assert str(bench.average([-0.0, -0.0])) == "0.0"
    assert type(bench.average([1.0])) is float


def test_random_doubles_and_negative_counts():
    rng = SplitMix64(7)
    assert bench.random_doubles(3, 7).tolist() == [rng.next_double() for _ in range(3)]
    assert bench.random_doubles(0, 7).tolist() == []
    with pytest.raises(BenchError) as raised:
        bench.random_doubles(-1, 7)
    assert (raised.value.code, raised.value.message) == (400, "count must not be negative")
    for call in (lambda: bench.search_books("q", -1), lambda: bench.get_items(-5)):
        with pytest.raises(BenchError):
            call()


def test_log_transform_follows_ieee_at_the_edges():
    result = bench.log_transform([1.0, math.e, 0.0, -1.0, math.inf])
    assert result[0] == 0.0 and result[1] == 1.0 and result[2] == -math.inf
    assert math.isnan(result[3]) and result[4] == math.inf


def test_get_record_draws_in_contract_order():
    record = bench.get_record("record-42")
    rng = SplitMix64(fnv1a64(b"record-42"))
    assert record.id == rng.signed64()
    assert record.tags == [rng.word(12) for _ in range(8)]
    assert record.values == [rng.next_double() * 1000.0 for _ in range(16)]
    assert bench.get_record("ключ-🔑") == bench.get_record("ключ-🔑")


def test_search_books_fields():
    books = bench.search_books("distributed systems", 50)
    assert len(books) == 50 and bench.search_books("rpc", 0) == []
    for book in books:
        assert len(book.title) == 40 and 1 <= len(book.authors) <= 3
        assert book.list_price >= book.price and 1950 <= book.year <= 2025 and 1 <= book.month <= 12
        assert len(book.keywords) <= 5 and book.isbn.startswith("978") and len(book.isbn) == 13
        assert book.url == "https://books.example.org/isbn/" + book.isbn and 0 <= book.star_rating <= 5
    assert books[:3] == bench.search_books("distributed systems", 3)


def test_get_items_fields():
    items = bench.get_items(100)
    rng = SplitMix64(100)
    assert items[0].id == rng.signed64()
    for item in items:
        assert 1000000000000 <= item.created <= item.updated < item.created + 1000000000
        assert -(1 << 31) <= item.quantity < (1 << 31) and 0.0 <= item.price < 1000000.0
        assert is_float32(item.weight) and 0.0 <= item.weight <= 1.0
    assert bench.get_items(1)[0] != items[0]  # the seed is the count


def test_fail_raises_the_declared_error():
    with pytest.raises(BenchError) as raised:
        bench.fail(-1, "<&> Grüße 𝄞")
    assert (raised.value.code, raised.value.message) == (-1, "<&> Grüße 𝄞")


def test_stream_chunks_concatenate_to_random_doubles():
    chunks = list(bench.random_doubles_stream(10001, 3, 1000))
    assert [len(c) for c in chunks] == [1000] * 10 + [1]
    assert [v for c in chunks for v in c] == bench.random_doubles(10001, 3).tolist()
    assert list(bench.random_doubles_stream(0, 3, 10)) == []
    with pytest.raises(BenchError) as raised:
        bench.random_doubles_stream(10, 3, 0)
    assert (raised.value.code, raised.value.message) == (400, "chunk must be positive")


def test_handler_arguments_are_float64_arrays_where_the_contract_has_float64_lists():
    import numpy as np

    from rpcmatrix.contract.reference import handler_arguments
    values, count = handler_arguments(["float64[]", "int32"], [[1.0, 2.5], 3])
    assert isinstance(values, np.ndarray) and values.dtype == np.float64 and values.tolist() == [1.0, 2.5]
    assert count == 3
    array = np.array([0.5])
    assert handler_arguments(["float64[]"], [array])[0] is array  # already the servers' form: no copy
