using System;
using System.Threading;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Reference
{
    /// <summary>
    /// The contract's Calculator in process: servers wrap it in their remote object, the handler command times it.
    /// The total wraps as two's complement (unchecked), as the contract says.
    /// </summary>
    public sealed class ReferenceCalculator : ICalculator
    {
        private long total;
        private int released;

        public long Add(long n)
        {
            Live();
            return total = unchecked(total + n);
        }

        public void Clear()
        {
            Live();
            total = 0;
        }

        public long Total()
        {
            Live();
            return total;
        }

        public void Release()
        {
            Live();
            Interlocked.Exchange(ref released, 1);
        }

        public bool IsReleased { get { return Volatile.Read(ref released) != 0; } }

        private void Live()
        {
            if (IsReleased)
            {
                throw new ObjectDisposedException("Calculator", "the calculator was released");
            }
        }
    }

    /// <summary>The in-process CalculatorFactory: what the handler command times for a session workload.</summary>
    public sealed class ReferenceCalculatorFactory : ICalculatorClient
    {
        public ICalculator Create()
        {
            return new ReferenceCalculator();
        }

        public bool IsNoSuchObject(Exception e)
        {
            return e is ObjectDisposedException;
        }
    }
}
