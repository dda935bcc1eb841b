using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Hosting;

namespace RpcMatrix.RawTcp
{
    /// <summary>Client adapter: one persistent TCP connection, TCP_NODELAY, sequential calls, one flush per request.</summary>
    public sealed class RawTcpBenchClient : IBenchClient
    {
        private const int BufferSize = 64 * 1024;
        private readonly TcpClient tcp;
        private readonly BufferedStream input;
        private readonly BufferedStream output;
        private readonly FrameWriter request = new FrameWriter();

        public RawTcpBenchClient(string host, int port)
        {
            tcp = new TcpClient(host, port) { NoDelay = true };
            NetworkStream network = tcp.GetStream();
            input = new BufferedStream(network, BufferSize);
            output = new BufferedStream(network, BufferSize);
        }

        public void Ping() { Call(Begin(0)).ExpectEnd(); }
        public bool EchoBool(bool value) { var w = Begin(1); w.Bool(value); return End(Call(w).Bool()); }
        public sbyte EchoInt8(sbyte value) { var w = Begin(2); w.Int8(value); return End(Call(w).Int8()); }
        public short EchoInt16(short value) { var w = Begin(3); w.Int16(value); return End(Call(w).Int16()); }
        public int EchoInt32(int value) { var w = Begin(4); w.Int32(value); return End(Call(w).Int32()); }
        public long EchoInt64(long value) { var w = Begin(5); w.Int64(value); return End(Call(w).Int64()); }
        public float EchoFloat32(float value) { var w = Begin(6); w.Float32(value); return End(Call(w).Float32()); }
        public double EchoFloat64(double value) { var w = Begin(7); w.Float64(value); return End(Call(w).Float64()); }
        public string EchoString(string value) { var w = Begin(8); w.String(value); return End(Call(w).String()); }
        public byte[] EchoBytes(byte[] value) { var w = Begin(9); w.Bytes(value); return End(Call(w).Bytes()); }
        public bool IsPrime(int n) { var w = Begin(10); w.Int32(n); return End(Call(w).Bool()); }
        public double Average(double[] values) { var w = Begin(11); w.Float64Array(values); return End(Call(w).Float64()); }

        public double[] RandomDoubles(int count, long seed)
        {
            var w = Begin(12);
            w.Int32(count);
            w.Int64(seed);
            return End(Call(w).Float64Array());
        }

        public double[] LogTransform(double[] values) { var w = Begin(13); w.Float64Array(values); return End(Call(w).Float64Array()); }
        public Record GetRecord(string key) { var w = Begin(14); w.String(key); return End(StructCodec.ReadRecord(Call(w))); }

        public Book[] SearchBooks(string query, int count)
        {
            var w = Begin(15);
            w.String(query);
            w.Int32(count);
            return End(StructCodec.ReadBooks(Call(w)));
        }

        public Item[] GetItems(int count) { var w = Begin(16); w.Int32(count); return End(StructCodec.ReadItems(Call(w))); }

        public void Fail(int code, string message)
        {
            var w = Begin(17);
            w.Int32(code);
            w.String(message);
            Call(w).ExpectEnd();
        }

        public IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk)
        {
            throw new NotSupportedException("randomDoublesStream is a gRPC-only operation");
        }

        public void Dispose()
        {
            tcp.Close();
        }

        private FrameReader last;

        private FrameWriter Begin(int op)
        {
            request.Reset();
            request.U16(op);
            return request;
        }

        /// <summary>Sends the request frame, reads the response, turns status 1 into BenchError and status 2 into an exception.</summary>
        private FrameReader Call(FrameWriter w)
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
                    last = response;
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

        /// <summary>Checks that the response held exactly the return value.</summary>
        private T End<T>(T value)
        {
            last.ExpectEnd();
            return value;
        }
    }
}
