from rpcmatrix.contract.generator import ALPHABET, SplitMix64, fnv1a64


def test_splitmix64_reference_values():
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


def test_fnv1a64_reference_values():
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C


def test_seed_is_taken_as_its_64_bit_pattern():
    assert SplitMix64(-1).next() == SplitMix64(0xFFFFFFFFFFFFFFFF).next()
    assert SplitMix64(-(1 << 63)).next() == SplitMix64(1 << 63).next()


def test_derived_draws_follow_next():
    raw, rng = SplitMix64(7), SplitMix64(7)
    first = raw.next()
    assert rng.next_double() == (first >> 11) * 2.0 ** -53
    second = raw.next()
    assert rng.below(62) == (second >> 1) % 62
    third = raw.next()
    assert rng.signed64() == (third - (1 << 64) if third >= 1 << 63 else third)
    fourth = raw.next() >> 32
    assert rng.signed32() == (fourth - (1 << 32) if fourth >= 1 << 31 else fourth)


def test_signed_draws_are_in_range_and_take_both_signs():
    rng = SplitMix64(123)
    values64 = [rng.signed64() for _ in range(200)]
    values32 = [rng.signed32() for _ in range(200)]
    assert all(-(1 << 63) <= v < (1 << 63) for v in values64)
    assert all(-(1 << 31) <= v < (1 << 31) for v in values32)
    assert min(values64) < 0 < max(values64) and min(values32) < 0 < max(values32)


def test_word_draws_one_below_62_per_character():
    rng, raw = SplitMix64(5), SplitMix64(5)
    assert rng.word(12) == "".join(ALPHABET[(raw.next() >> 1) % 62] for _ in range(12))


def test_doubles_fast_path_equals_next_double():
    slow = SplitMix64(99)
    expected = [slow.next_double() for _ in range(1000)]
    fast = SplitMix64(99)
    assert fast.doubles(1000).tolist() == expected
    assert fast.next() == slow.next()  # the state moved on by the same amount
    assert all(0.0 <= v < 1.0 for v in expected)


def test_doubles_across_the_kept_steps_and_beyond():
    for count in (0, 1, 65536, 65537, 70000):
        slow = SplitMix64(-3)
        fast = SplitMix64(-3).doubles(count)
        assert len(fast) == count
        if count:
            assert fast[-1] == [slow.next_double() for _ in range(count)][-1]
