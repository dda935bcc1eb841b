using System;
using System.Collections.Concurrent;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;

namespace RpcMatrix.RawTcp
{
    /// <summary>TcpListener with a thread per connection; TCP_NODELAY, one flush per response frame.</summary>
    public sealed class RawTcpServer : IBenchServer
    {
        private const int BufferSize = 64 * 1024;
        private readonly IBench bench;
        private readonly ConcurrentDictionary<Socket, bool> open = new ConcurrentDictionary<Socket, bool>();
        private TcpListener listener;
        private volatile bool stopping;

        public RawTcpServer(IBench bench)
        {
            this.bench = bench;
        }

        public int Start(IPAddress host, int port)
        {
            listener = new TcpListener(host, port);
            listener.Start(128);
            new Thread(AcceptLoop) { IsBackground = true, Name = "rawtcp-accept" }.Start();
            return ((IPEndPoint)listener.LocalEndpoint).Port;
        }

        public void Stop()
        {
            stopping = true;
            listener.Stop();
            foreach (Socket socket in open.Keys)
            {
                socket.Close();
            }
        }

        private void AcceptLoop()
        {
            while (!stopping)
            {
                Socket socket;
                try
                {
                    socket = listener.AcceptSocket();
                }
                catch (Exception) when (stopping)
                {
                    return;
                }
                catch (SocketException e)
                {
                    Console.Error.WriteLine("rawtcp accept failed: " + e.Message);
                    continue;
                }
                socket.NoDelay = true;
                open[socket] = true;
                new Thread(() => Serve(socket)) { IsBackground = true, Name = "rawtcp-connection" }.Start();
            }
        }

        private void Serve(Socket socket)
        {
            var dispatcher = new RawTcpDispatcher(bench);
            var response = new FrameWriter();
            try
            {
                using (var network = new NetworkStream(socket, true))
                using (var input = new BufferedStream(network, BufferSize))
                using (var output = new BufferedStream(network, BufferSize))
                {
                    FrameReader request;
                    while ((request = FrameReader.ReadFrom(input)) != null)
                    {
                        dispatcher.Dispatch(request, response);
                        response.WriteFrameTo(output);
                        output.Flush();
                    }
                }
            }
            catch (RawTcpProtocolException e)
            {
                // idl/rawtcp.md: an oversized frame closes the connection.
                Console.Error.WriteLine("rawtcp: closing connection: " + e.Message);
            }
            catch (IOException)
            {
                // The peer went away mid-frame, or Stop closed the socket.
            }
            catch (ObjectDisposedException)
            {
            }
            finally
            {
                bool ignored;
                open.TryRemove(socket, out ignored);
                socket.Close();
            }
        }
    }
}
