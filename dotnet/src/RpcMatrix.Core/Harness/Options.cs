using System.Net;
using RpcMatrix.Core.Conformance;

namespace RpcMatrix.Core.Harness
{
    /// <summary>"server|client --protocol P --host H --port N --idl DIR [--secrets DIR]", parsed and checked.</summary>
    public sealed class Options
    {
        public Protocol Protocol;
        public string HostText;
        public IPAddress Host;
        public int Port;
        public string IdlDirectory;
        public string SecretsDirectory;
    }
}
