"""The servants: Bench answers with ReferenceBench; CalculatorFactory.create() activates a new Calculator
servant around a reference calculator, and Calculator.release() deactivates it, so later calls on its
reference are refused with OBJECT_NOT_EXIST."""
from __future__ import annotations

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.calculator import ReferenceCalculator
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.corba._generated import rpcmatrix as idl
from rpcmatrix.corba._generated import rpcmatrix__POA as skeletons
from rpcmatrix.corba.mapping import from_wire, to_wire


def _method(operation: Operation, reference: ReferenceBench):
    """The servant method named as the IDL operation: converts, calls the reference, converts back;
    BenchError travels as the IDL user exception."""
    converters = [from_wire(p.type) for p in operation.params]
    call = getattr(reference, operation.method)
    result_to_wire = to_wire(operation.returns)

    def method(self, *params):
        try:
            return result_to_wire(call(*[convert(v) for convert, v in zip(converters, params, strict=True)]))
        except BenchError as error:
            raise idl.BenchError(error.code, error.message) from None

    method.__name__ = operation.name
    return method


class BenchServant(skeletons.Bench):
    pass


_reference = injected_spin.served()
for _operation in OPERATIONS:
    if not _operation.is_stream:
        setattr(BenchServant, _operation.name, _method(_operation, _reference))


class CalculatorServant(skeletons.Calculator):
    def __init__(self, poa):
        self._poa = poa
        self._calculator = ReferenceCalculator()

    def add(self, n):
        return self._calculator.add(n)

    def clear(self):
        self._calculator.clear()

    def total(self):
        return self._calculator.total()

    def release(self):
        # Deactivation completes once this call has returned; later calls get OBJECT_NOT_EXIST.
        self._poa.deactivate_object(self._poa.servant_to_id(self))


class CalculatorFactoryServant(skeletons.CalculatorFactory):
    def __init__(self, poa):
        self._poa = poa

    def create(self):
        servant = CalculatorServant(self._poa)
        self._poa.activate_object(servant)
        return self._poa.servant_to_reference(servant)
