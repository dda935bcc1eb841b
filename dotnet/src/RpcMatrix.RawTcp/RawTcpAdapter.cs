using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.RawTcp
{
    /// <summary>The rawtcp family for the launcher: its server and client adapter. The family has no variants.</summary>
    public sealed class RawTcpAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            return new RawTcpServer(InjectedSpin.Served());
        }

        public IBenchClient CreateClient(Options options)
        {
            return new RawTcpClient(options.HostText, options.Port);
        }
    }
}
