"""Attack vectors in the harness (harness/attacks.py): how the conformance run judges a defective call."""
from rpcmatrix.contract.catalog import load_protocol, load_vectors
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.harness.attacks import AttackClient, attack_outcome
from rpcmatrix.harness.calls import Driver
from rpcmatrix.harness.conformance import run_vectors


class FakeAttackClient(ReferenceBench):
    """Answers correct calls with the reference; `refusal` is what the fake server does with an attack."""

    def __init__(self, refusal="SOAP Fault: security header missing", serving=True):
        self.refusal, self.serving = refusal, serving
        self.attacks, self.pings_after = [], 0

    def attack(self, attack, operation, args):
        self.attacks.append((attack, operation.name, list(args)))
        return self.refusal

    def ping_after_attack(self):
        self.pings_after += 1
        if not self.serving:
            raise ConnectionRefusedError("connection refused")

    def close(self):
        pass


class BrokenAttackClient(FakeAttackClient):
    def attack(self, attack, operation, args):
        raise RuntimeError("no key to sign with")


def _attack_vectors(idl):
    return [v for v in load_vectors(idl) if v.attack is not None]


def _results(idl, client, protocol="wss-sign"):
    vectors = _attack_vectors(idl)
    results = run_vectors(Driver(client), vectors, load_protocol(idl, protocol))
    return {r["id"]: (r["status"], r["reason"]) for r in results}


def test_a_refused_attack_passes_with_the_refusal_as_reason(idl):
    client = FakeAttackClient()
    results = _results(idl, client)
    assert results["refuse_tampered_body"] == ("pass", "SOAP Fault: security header missing")
    assert ("tampered-body", "echoString", ["signed"]) in client.attacks
    # every attack that was made was followed by a ping on a new connection
    assert client.pings_after == len(client.attacks) > 0


def test_attacks_the_protocol_lacks_are_unsupported_and_not_made(idl):
    client = FakeAttackClient()
    results = _results(idl, client, protocol="wss-sign")
    lacks = load_protocol(idl, "wss-sign").lacks
    assert results["refuse_wrong_password"] == ("unsupported", lacks["username-token"])
    assert results["refuse_client_without_certificate"][0] == "unsupported"
    assert "wrong-password" not in [attack for attack, _, _ in client.attacks]


def test_an_answered_attack_fails(idl):
    results = _results(idl, FakeAttackClient(refusal=None))
    assert results["refuse_expired_timestamp"] == ("fail", "the server answered the defective call")


def test_a_server_that_stops_serving_after_refusing_fails(idl):
    status, reason = _results(idl, FakeAttackClient(serving=False))["refuse_replayed_message"]
    assert status == "fail"
    assert reason.startswith("refused (SOAP Fault: security header missing), but then stopped serving: ")
    assert "connection refused" in reason


def test_a_client_without_attacks_is_an_error(idl):
    results = _results(idl, ReferenceBench())
    assert results["refuse_missing_security_header"] == ("error", "the client implements no attacks")


def test_an_attack_the_client_cannot_make_is_its_own_error(idl):
    status, reason = _results(idl, BrokenAttackClient())["refuse_unknown_certificate"]
    assert status == "error" and "no key to sign with" in reason


def test_the_protocol_is_structural(idl):
    assert isinstance(FakeAttackClient(), AttackClient)
    assert not isinstance(ReferenceBench(), AttackClient)
    vector = _attack_vectors(idl)[0]
    assert attack_outcome(object(), vector)["status"] == "error"


def test_plain_protocols_report_every_attack_unsupported(idl):
    results = _results(idl, ReferenceBench(), protocol="soap11")
    assert {status for status, _ in results.values()} == {"unsupported"}
