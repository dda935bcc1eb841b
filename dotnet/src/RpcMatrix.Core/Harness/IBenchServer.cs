using System.Net;

namespace RpcMatrix.Core.Harness
{
    /// <summary>A protocol's server: serves a Bench until stopped.</summary>
    public interface IBenchServer
    {
        /// <summary>Binds and starts accepting calls; returns the port bound (the OS picks one for port 0).</summary>
        int Start(IPAddress host, int port);

        /// <summary>Closes the listener and open connections; returns within a few seconds.</summary>
        void Stop();
    }
}
