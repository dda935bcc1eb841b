using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Remoting
{
    /// <summary>The dotnet-remoting family (remoting-tcp: TCP channel, binary formatter) for the launcher.</summary>
    public sealed class RemotingAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            return new RemotingServer(InjectedSpin.Served());
        }

        public IBenchClient CreateClient(Options options)
        {
            return new RemotingClient(options.HostText, options.Port);
        }
    }
}
