using System;
using System.IO;
using System.Net.Sockets;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;

namespace RpcMatrix.RawTcp
{
    /// <summary>
    /// Client adapter: one persistent TCP connection, TCP_NODELAY, sequential calls, one flush per request; each
    /// operation encoded and decoded through RawTcpOperation (RawTcpMapping).
    /// </summary>
    public sealed class RawTcpClient : OperationClient
    {
        private const int BufferSize = 64 * 1024;
        private readonly TcpClient tcp;
        private readonly BufferedStream input;
        private readonly BufferedStream output;
        private readonly FrameWriter request = new FrameWriter();

        public RawTcpClient(string host, int port)
        {
            tcp = new TcpClient(host, port) { NoDelay = true };
            NetworkStream network = tcp.GetStream();
            input = new BufferedStream(network, BufferSize);
            output = new BufferedStream(network, BufferSize);
        }

        public override void Dispose()
        {
            tcp.Close();
        }

        /// <summary>
        /// False: one socket, one request buffer and one pair of buffered streams, no lock; the wire matches each
        /// response to the one request outstanding. The load command opens a client per connection.
        /// </summary>
        public override bool SharesConnection { get { return false; } }

        protected override object Call(OperationInfo op, object[] args)
        {
            RawTcpOperation bound = RawTcpOperation.Table[op.Id];
            request.Reset();
            bound.WriteRequest(request, args);
            return bound.ReadResult(Send(request));
        }

        /// <summary>Sends the request frame, reads the response, turns status 1 into BenchError and status 2 into an exception.</summary>
        private FrameReader Send(FrameWriter w)
        {
            w.WriteFrameTo(output);
            output.Flush();
            FrameReader response = FrameReader.ReadFrom(input);
            if (response == null)
            {
                throw new IOException("server closed the connection");
            }
            byte status = response.U8();
            switch (status)
            {
                case RawTcpDispatcher.StatusOk:
                    return response;
                case RawTcpDispatcher.StatusBenchError:
                    int code = response.Int32();
                    string message = response.String();
                    throw new BenchError(code, message);
                case RawTcpDispatcher.StatusOtherError:
                    throw new InvalidOperationException("server error: " + response.String());
                default:
                    throw new RawTcpProtocolException("unknown response status " + status);
            }
        }
    }
}
