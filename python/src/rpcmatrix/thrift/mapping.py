"""How the contract's values travel in Thrift (CONTRACT.md#carriage): int8 as `byte`, int16 as `i16`,
float32 as `double` checked by the receiver to be exactly a float32, bytes as `binary`, structs as the
IDL's structs, BenchError as the declared exception (of `fail` and of the operations taking a count)."""
from __future__ import annotations

import numpy as np

from rpcmatrix.contract import model
from rpcmatrix.contract.scalars import check_float32
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import ttypes


class CarriageError(ValueError):
    """A received value that Thrift carried but the contract rejects: a fault, never a silent change."""


def float32(value: float, what: str) -> float:
    """`value` when it is exactly a float32; raises CarriageError otherwise (never rounds silently)."""
    try:
        return check_float32(value)
    except ValueError as e:
        raise CarriageError(f"{what}: {e}") from None


def _present(value, field: str):
    # Thrift leaves an unset field None: a missing field is a carriage error, not an empty value.
    if value is None:
        raise CarriageError(f"{field} is missing")
    return value


def record_to_thrift(r: model.Record) -> ttypes.Record:
    return ttypes.Record(id=r.id, tags=r.tags, values=r.values)


def record_from_thrift(r: ttypes.Record) -> model.Record:
    return model.Record(id=_present(r.id, "Record.id"), tags=_present(r.tags, "Record.tags"),
                        values=_present(r.values, "Record.values"))


def book_to_thrift(b: model.Book) -> ttypes.Book:
    return ttypes.Book(title=b.title, authors=b.authors, price=b.price, listPrice=b.list_price,
                       publisher=b.publisher, year=b.year, month=b.month, keywords=b.keywords, isbn=b.isbn,
                       starRating=b.star_rating, url=b.url)


def book_from_thrift(b: ttypes.Book) -> model.Book:
    return model.Book(title=_present(b.title, "Book.title"), authors=_present(b.authors, "Book.authors"),
                      price=_present(b.price, "Book.price"), list_price=_present(b.listPrice, "Book.listPrice"),
                      publisher=_present(b.publisher, "Book.publisher"), year=_present(b.year, "Book.year"),
                      month=_present(b.month, "Book.month"), keywords=_present(b.keywords, "Book.keywords"),
                      isbn=_present(b.isbn, "Book.isbn"), star_rating=_present(b.starRating, "Book.starRating"),
                      url=_present(b.url, "Book.url"))


def item_to_thrift(i: model.Item) -> ttypes.Item:
    return ttypes.Item(id=i.id, title=i.title, description=i.description, category=i.category, owner=i.owner,
                       created=i.created, updated=i.updated, quantity=i.quantity, price=i.price, weight=i.weight)


def item_from_thrift(i: ttypes.Item) -> model.Item:
    return model.Item(id=_present(i.id, "Item.id"), title=_present(i.title, "Item.title"),
                      description=_present(i.description, "Item.description"),
                      category=_present(i.category, "Item.category"), owner=_present(i.owner, "Item.owner"),
                      created=_present(i.created, "Item.created"), updated=_present(i.updated, "Item.updated"),
                      quantity=_present(i.quantity, "Item.quantity"), price=_present(i.price, "Item.price"),
                      weight=float32(_present(i.weight, "Item.weight"), "Item.weight"))


def books_to_thrift(books: list[model.Book]) -> list[ttypes.Book]:
    return [book_to_thrift(b) for b in books]


def books_from_thrift(books: list[ttypes.Book]) -> list[model.Book]:
    return [book_from_thrift(b) for b in books]


def items_to_thrift(items: list[model.Item]) -> list[ttypes.Item]:
    return [item_to_thrift(i) for i in items]


def items_from_thrift(items: list[ttypes.Item]) -> list[model.Item]:
    return [item_from_thrift(i) for i in items]


def float_list(values):
    """fastbinary writes a list<double> fastest from a list of Python floats: convert arrays in one call."""
    return values.tolist() if isinstance(values, np.ndarray) else values
