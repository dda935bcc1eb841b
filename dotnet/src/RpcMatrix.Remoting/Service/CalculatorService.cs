using System;
using System.Runtime.Remoting;
using System.Runtime.Remoting.Lifetime;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Remoting.Service
{
    /// <summary>
    /// The well-known singleton factory (URI "CalculatorFactory"): create() marshals a new Calculator by reference.
    /// </summary>
    public sealed class CalculatorFactoryService : MarshalByRefObject
    {
        public const string Uri = "CalculatorFactory";

        public override object InitializeLifetimeService()
        {
            return null;
        }

        public CalculatorService Create()
        {
            return new CalculatorService();
        }
    }

    /// <summary>
    /// One Calculator, reached by the ObjRef that create() returns. Release() disconnects it, so that a later call
    /// is refused with RemotingException; a calculator a client forgets expires with its lease.
    /// </summary>
    public sealed class CalculatorService : MarshalByRefObject
    {
        // Long enough for any session; renewed by every call.
        private static readonly TimeSpan LeaseTime = TimeSpan.FromMinutes(10);

        private readonly ReferenceCalculator calculator = new ReferenceCalculator();

        public override object InitializeLifetimeService()
        {
            var lease = (ILease)base.InitializeLifetimeService();
            if (lease.CurrentState == LeaseState.Initial)
            {
                lease.InitialLeaseTime = LeaseTime;
                lease.RenewOnCallTime = LeaseTime;
            }
            return lease;
        }

        public long Add(long n) { Live(); return calculator.Add(n); }
        public void Clear() { Live(); calculator.Clear(); }
        public long Total() { Live(); return calculator.Total(); }

        public void Release()
        {
            Live();
            calculator.Release();
            RemotingServices.Disconnect(this);
        }

        /// <summary>
        /// Over TCP a disconnected object is never reached (the channel answers RemotingException itself); a proxy
        /// from another application domain of the same process may still hold the object, so it refuses the same way.
        /// </summary>
        private void Live()
        {
            if (calculator.IsReleased)
            {
                throw new RemotingException("the calculator was released (disconnected)");
            }
        }
    }
}
