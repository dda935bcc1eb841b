"""The gRPC carriage of the contract (CONTRACT.md#carriage) between the contract's Python values
(rpcmatrix.contract.model) and the messages generated from idl/bench.proto.

int8 and int16 travel as sint32, so the receiver checks their range and rejects what does not fit.
BenchError travels as status FAILED_PRECONDITION with the contract message as the status details and the
contract code, in decimal, in the trailing metadata key `bench-error-code`."""
from __future__ import annotations

import re

import grpc

from rpcmatrix.contract.model import BenchError, Book, Item, Record
from rpcmatrix.contract.scalars import check_integer
from rpcmatrix.grpc._generated import bench_pb2 as pb

ERROR_CODE_KEY = "bench-error-code"
_DECIMAL = re.compile(r"-?[0-9]+")


def int8_from_wire(value: int) -> int:
    return check_integer("int8", value)


def int16_from_wire(value: int) -> int:
    return check_integer("int16", value)


def record_to_wire(record: Record) -> pb.Record:
    return pb.Record(id=record.id, tags=record.tags, values=record.values)


def record_from_wire(message: pb.Record) -> Record:
    return Record(id=message.id, tags=list(message.tags), values=list(message.values))


def books_to_wire(books: list[Book]) -> pb.Books:
    return pb.Books(books=[
        pb.Book(title=b.title, authors=b.authors, price=b.price, listPrice=b.list_price,
                publisher=b.publisher, year=b.year, month=b.month, keywords=b.keywords, isbn=b.isbn,
                starRating=b.star_rating, url=b.url)
        for b in books
    ])


def books_from_wire(message: pb.Books) -> list[Book]:
    return [
        Book(title=b.title, authors=list(b.authors), price=b.price, list_price=b.listPrice,
             publisher=b.publisher, year=b.year, month=b.month, keywords=list(b.keywords), isbn=b.isbn,
             star_rating=b.starRating, url=b.url)
        for b in message.books
    ]


def items_to_wire(items: list[Item]) -> pb.Items:
    return pb.Items(items=[
        pb.Item(id=i.id, title=i.title, description=i.description, category=i.category, owner=i.owner,
                created=i.created, updated=i.updated, quantity=i.quantity, price=i.price, weight=i.weight)
        for i in items
    ])


def items_from_wire(message: pb.Items) -> list[Item]:
    return [
        Item(id=i.id, title=i.title, description=i.description, category=i.category, owner=i.owner,
             created=i.created, updated=i.updated, quantity=i.quantity, price=i.price, weight=i.weight)
        for i in message.items
    ]


def abort_with(context: grpc.ServicerContext, error: Exception) -> None:
    """Ends the call with the status that carries `error` (raises, as ServicerContext.abort does)."""
    if isinstance(error, BenchError):
        context.set_trailing_metadata(((ERROR_CODE_KEY, str(error.code)),))
        context.abort(grpc.StatusCode.FAILED_PRECONDITION, error.message)
    if isinstance(error, ValueError):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
    context.abort(grpc.StatusCode.INTERNAL, f"{type(error).__name__}: {error}")


class MalformedBenchError(Exception):
    """A status that carries half of a BenchError: the code without FAILED_PRECONDITION, or the reverse."""


def error_from_rpc(error: grpc.RpcError) -> Exception:
    """What a client raises for a failed call: BenchError when the status is FAILED_PRECONDITION *and*
    the trailers carry a decimal bench-error-code; the gRPC error itself when neither is there."""
    trailers = dict(error.trailing_metadata() or ())
    code = trailers.get(ERROR_CODE_KEY)
    failed_precondition = error.code() == grpc.StatusCode.FAILED_PRECONDITION
    if code is None and not failed_precondition:
        return error
    if code is None or not failed_precondition:
        return MalformedBenchError(
            f"status {error.code().name} with {ERROR_CODE_KEY}={code!r}: {error.details()!r}")
    try:
        if not _DECIMAL.fullmatch(code):
            raise ValueError(code)
        parsed = check_integer("int32", int(code))
    except ValueError:
        return MalformedBenchError(f"{ERROR_CODE_KEY} is not a decimal int32: {code!r}")
    return BenchError(parsed, error.details() or "")
