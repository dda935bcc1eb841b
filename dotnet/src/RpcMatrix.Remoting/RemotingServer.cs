using System.Net;
using System.Runtime.Remoting;
using System.Runtime.Remoting.Channels.Tcp;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Remoting.Channel;
using RpcMatrix.Remoting.Service;

namespace RpcMatrix.Remoting
{
    /// <summary>Publishes the Bench and the CalculatorFactory as well-known singletons on one TCP channel.</summary>
    public sealed class RemotingServer : IBenchServer
    {
        private readonly IBench bench;
        private TcpChannel channel;
        private BenchService benchService;
        private CalculatorFactoryService factoryService;

        public RemotingServer(IBench bench)
        {
            this.bench = bench;
        }

        public int Start(IPAddress host, int port)
        {
            channel = RemotingChannels.Server(host, port);
            benchService = new BenchService(bench);
            factoryService = new CalculatorFactoryService();
            RemotingServices.Marshal(benchService, BenchService.Uri, typeof(BenchService));
            RemotingServices.Marshal(factoryService, CalculatorFactoryService.Uri, typeof(CalculatorFactoryService));
            return RemotingChannels.Port(channel);
        }

        public void Stop()
        {
            RemotingServices.Disconnect(benchService);
            RemotingServices.Disconnect(factoryService);
            RemotingChannels.Close(channel);
        }
    }
}
