using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>
    /// Judges an attack vector: it passes when the server refuses the defective call and then still answers a
    /// correct ping on a new connection.
    /// </summary>
    public static class AttackVectors
    {
        public static VectorResult Run(object remote, Vector vector, OperationInfo op, object[] args)
        {
            var attacker = remote as IAttackClient;
            if (attacker == null)
            {
                return VectorResult.Error(vector.Id, "the client implements no attacks");
            }
            string refusal;
            try
            {
                refusal = attacker.Attack(vector.Attack, op, args);
            }
            catch (Exception e)
            {
                return VectorResult.Error(vector.Id, "could not make the " + vector.Attack + " call: " + Messages.Of(e));
            }
            if (refusal == null)
            {
                return VectorResult.Fail(vector.Id, "the server answered the defective call");
            }
            try
            {
                attacker.PingAfterAttack();
            }
            catch (Exception e)
            {
                return VectorResult.Fail(vector.Id, "refused (" + refusal + "), but then stopped serving: " + Messages.Of(e));
            }
            return VectorResult.Pass(vector.Id, refusal);
        }
    }
}
