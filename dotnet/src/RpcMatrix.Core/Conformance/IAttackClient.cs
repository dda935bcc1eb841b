using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>
    /// A client that can make a call with a defect on purpose (CONTRACT.md#vectors, attacks): the server must
    /// refuse it and keep serving.
    /// </summary>
    public interface IAttackClient
    {
        /// <summary>
        /// Makes the call of op with the named defect ("missing-security-header", "tampered-body"...). Returns the
        /// refusal seen (a fault, a closed connection), or null when the server answered the call.
        /// </summary>
        string Attack(string attack, OperationInfo op, object[] args);

        /// <summary>A correct ping() on a new connection; throws when the server no longer serves.</summary>
        void PingAfterAttack();
    }
}
