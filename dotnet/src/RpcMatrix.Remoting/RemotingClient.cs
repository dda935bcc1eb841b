using System;
using System.Runtime.Remoting;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Remoting.Channel;
using RpcMatrix.Remoting.Service;

namespace RpcMatrix.Remoting
{
    /// <summary>
    /// Client adapter: transparent proxies from Activator.GetObject for the Bench and the CalculatorFactory (no
    /// network until the first call), each operation called through the operation table (RemotingOperation,
    /// RemotingMapping); RemoteBenchError comes back as BenchError.
    /// </summary>
    public sealed class RemotingClient : OperationClient, ICalculatorClient
    {
        private readonly BenchService bench;
        private readonly CalculatorFactoryService factory;

        public RemotingClient(string host, int port)
        {
            RemotingChannels.EnsureClient();
            bench = (BenchService)Activator.GetObject(typeof(BenchService), RemotingChannels.Url(host, port, BenchService.Uri));
            factory = (CalculatorFactoryService)Activator.GetObject(typeof(CalculatorFactoryService),
                RemotingChannels.Url(host, port, CalculatorFactoryService.Uri));
        }

        public ICalculator Create()
        {
            return new RemoteCalculator(factory.Create());
        }

        /// <summary>A call on a disconnected object is refused with RemotingException ("no receiver for uri").</summary>
        public bool IsNoSuchObject(Exception e)
        {
            return e is RemotingException;
        }

        /// <summary>
        /// The proxies hold nothing: Mono's TcpClientChannel lends every call a connection from its one pool per server
        /// and process (TcpConnectionPool, internal: unbounded in Mono 6.8, a connection idle 15 s closed within 3 s more), so its
        /// connections close when idle or at exit, not here.
        /// </summary>
        public override void Dispose()
        {
        }

        /// <summary>
        /// False. The transparent proxy may be called from many threads, but no connection carries two calls: each
        /// concurrent call takes a pooled connection of its own (a new one when none is idle). The load command's
        /// clients over N connections so make at most N calls at once and the pool holds at most N connections for
        /// them (the command loop's idle one among them); they close 15 to 18 s after the command.
        /// </summary>
        public override bool SharesConnection { get { return false; } }

        protected override object Call(OperationInfo op, object[] args)
        {
            try
            {
                return RemotingOperation.Table[op.Id].Call(bench, args);
            }
            catch (RemoteBenchError e)
            {
                throw new BenchError(e.Code, e.Message);
            }
        }

        private sealed class RemoteCalculator : ICalculator
        {
            private readonly CalculatorService proxy;

            public RemoteCalculator(CalculatorService proxy)
            {
                this.proxy = proxy;
            }

            public long Add(long n) { return proxy.Add(n); }
            public void Clear() { proxy.Clear(); }
            public long Total() { return proxy.Total(); }
            public void Release() { proxy.Release(); }
        }
    }
}
