"""The Bench port type of idl/bench.wsdl as a spyne service, document/literal wrapped: a request element
named as the operation with the contract's parameter names, a response element operation + "Response"
with one child `result` (none for void), types from bench.xsd, BenchError as the fault detail.

Every method delegates to the contract's ReferenceBench; results leave as plain Python values (numpy
arrays as lists) because spyne writes every float with repr()."""
from __future__ import annotations

import math

from lxml import etree
from spyne import (
    Application,
    Boolean,
    Byte,
    ByteArray,
    ComplexModel,
    Double,
    Fault,
    Float,
    Long,
    Service,
    Short,
    Unicode,
    rpc,
)
from spyne.model.primitive import Int

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.contract.scalars import to_float32
from rpcmatrix.soap.names import RESULT, TNS

_UNBOUNDED = dict(min_occurs=0, max_occurs="unbounded")


def _validate_double(cls, value):
    """NaN and the infinities are in xsd:double's value space, but spyne's soft validation compares every
    number with its Decimal bounds: a NaN makes that comparison raise decimal.InvalidOperation (a 500 with
    no Fault), and the infinities fall outside the finite bounds (a Fault).
    Double (and Float, its subclass) get a check that lets NaN through; the rest is spyne's own."""
    return value != value or math.isinf(value) or _spyne_validate_number(cls, value)


_spyne_validate_number = Double.validate_native
Double.validate_native = staticmethod(_validate_double)


class Record(ComplexModel):
    __namespace__ = TNS
    _type_info = [("id", Long(min_occurs=1)), ("tags", Unicode(**_UNBOUNDED)), ("values", Double(**_UNBOUNDED))]


class Book(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ("title", Unicode(min_occurs=1)), ("authors", Unicode(**_UNBOUNDED)), ("price", Double(min_occurs=1)),
        ("list_price", Double(min_occurs=1, sub_name="listPrice")), ("publisher", Unicode(min_occurs=1)),
        ("year", Int(min_occurs=1)), ("month", Int(min_occurs=1)), ("keywords", Unicode(**_UNBOUNDED)),
        ("isbn", Unicode(min_occurs=1)), ("star_rating", Int(min_occurs=1, sub_name="starRating")),
        ("url", Unicode(min_occurs=1)),
    ]


class Item(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ("id", Long(min_occurs=1)), ("title", Unicode(min_occurs=1)), ("description", Unicode(min_occurs=1)),
        ("category", Unicode(min_occurs=1)), ("owner", Unicode(min_occurs=1)), ("created", Long(min_occurs=1)),
        ("updated", Long(min_occurs=1)), ("quantity", Int(min_occurs=1)), ("price", Double(min_occurs=1)),
        ("weight", Float(min_occurs=1)),
    ]


_ONE = dict(min_occurs=1, nillable=False)
_TYPES = {
    "bool": Boolean(**_ONE), "int8": Byte(**_ONE), "int16": Short(**_ONE), "int32": Int(**_ONE),
    "int64": Long(**_ONE), "timestamp": Long(**_ONE), "float32": Float(**_ONE), "float64": Double(**_ONE),
    # spyne reads an empty element as None, which a non-nillable type refuses: strings and bytes stay
    # nillable and None becomes "" or b"" (_argument).
    "string": Unicode(min_occurs=1), "bytes": ByteArray(min_occurs=1),
    "float64[]": Double(**_UNBOUNDED), "string[]": Unicode(**_UNBOUNDED),
    "Record": Record.customize(**_ONE), "Book[]": Book.customize(**_UNBOUNDED),
    "Item[]": Item.customize(**_UNBOUNDED),
}


class BenchErrorFault(Fault):
    """What the published WSDL declares each raising operation throws: bench.xsd's BenchError element.
    (Faults are raised as plain spyne Faults whose detail holds that element: bench_fault.)"""
    __namespace__ = TNS
    __type_name__ = "BenchError"
    _type_info = [("code", Int(min_occurs=1, nillable=False)), ("message", Unicode(min_occurs=1, nillable=False))]


def bench_fault(error: BenchError) -> Fault:
    """A SOAP Fault whose detail is bench.xsd's BenchError element (SOAP 1.1 detail, SOAP 1.2 Detail)."""
    detail = etree.Element(f"{{{TNS}}}BenchError", nsmap={"tns": TNS})
    etree.SubElement(detail, f"{{{TNS}}}code").text = str(error.code)
    etree.SubElement(detail, f"{{{TNS}}}message").text = error.message
    return Fault(faultcode="Server", faultstring=error.message, detail=detail)


def _argument(type_name: str):
    """How a parsed argument becomes the reference's: xsd:float read as a double is rounded to float32
    (its value space), xsd:base64Binary arrives as chunks, an absent sequence is empty."""
    if type_name == "float32":
        return to_float32
    if type_name == "bytes":
        return lambda value: b"".join(value) if value is not None else b""
    if type_name.endswith("[]"):
        return lambda value: list(value) if value is not None else []
    if type_name == "string":
        return lambda value: value if value is not None else ""
    return lambda value: value


def _result(type_name: str):
    if type_name in ("float64[]",):
        return lambda value: value.tolist() if hasattr(value, "tolist") else value
    if type_name == "bytes":
        return lambda value: [value]  # spyne's ByteArray is a sequence of chunks
    return lambda value: value


def _method(operation: Operation, reference: ReferenceBench):
    call = getattr(reference, operation.method)
    arguments = [_argument(p.type) for p in operation.params]
    result = _result(operation.returns)

    def handle(ctx, *args):
        try:
            return result(call(*[convert(a) for convert, a in zip(arguments, args, strict=True)]))
        except BenchError as error:
            raise bench_fault(error) from None

    handle.__name__ = operation.name
    options = dict(_args=tuple(p.name for p in operation.params), _operation_name=operation.name,
                   _in_message_name=operation.name, _out_message_name=operation.name + "Response")
    if operation.returns != "void":
        options.update(_returns=_TYPES[operation.returns], _out_variable_name=RESULT)
    if operation.raises:
        options["_throws"] = BenchErrorFault
    return rpc(*[_TYPES[p.type] for p in operation.params], **options)(handle)


def bench_service(reference: ReferenceBench | None = None) -> type:
    reference = reference or injected_spin.served()
    methods = {op.name: _method(op, reference) for op in OPERATIONS if not op.is_stream}
    return type("Bench", (Service,), methods)


def application(in_protocol, out_protocol) -> Application:
    return Application([bench_service()], tns=TNS, name="BenchService", in_protocol=in_protocol,
                       out_protocol=out_protocol)
