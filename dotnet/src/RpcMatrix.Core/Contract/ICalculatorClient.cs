using System;

namespace RpcMatrix.Core.Contract
{
    /// <summary>
    /// A client whose protocol has remote references (CONTRACT.md#objects): the CalculatorFactory beside Bench.
    /// A client that does not implement it answers session vectors "no remote objects".
    /// </summary>
    public interface ICalculatorClient
    {
        /// <summary>CalculatorFactory.create(): a reference to a new Calculator with a total of 0.</summary>
        ICalculator Create();

        /// <summary>True when the exception is the protocol's "no such object" error (a call on a released Calculator).</summary>
        bool IsNoSuchObject(Exception e);
    }
}
