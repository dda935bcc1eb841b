"""The contract's structs and its declared error, as plain Python values.

int8 to int64 and timestamps are `int`, float32 and float64 are `float` (a float32 is a Python float that
float32 represents exactly), strings are `str`, bytes are `bytes`, sequences are `list`.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Record:
    id: int
    tags: list[str]
    values: list[float]


@dataclass(slots=True)
class Book:
    title: str
    authors: list[str]
    price: float
    list_price: float
    publisher: str
    year: int
    month: int
    keywords: list[str]
    isbn: str
    star_rating: int
    url: str


@dataclass(slots=True)
class Item:
    id: int
    title: str
    description: str
    category: str
    owner: str
    created: int
    updated: int
    quantity: int
    price: float
    weight: float


class BenchError(Exception):
    """The contract's declared error: `fail` raises it, and so does a negative count."""

    def __init__(self, code: int, message: str):
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"BenchError{{code: {self.code}, message: {self.message!r}}}"
