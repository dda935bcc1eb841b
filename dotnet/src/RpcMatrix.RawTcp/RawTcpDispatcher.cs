using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.RawTcp
{
    /// <summary>Server side: decodes one request body, calls the Bench, encodes the response body.</summary>
    public sealed class RawTcpDispatcher
    {
        public const byte StatusOk = 0;
        public const byte StatusBenchError = 1;
        public const byte StatusOtherError = 2;

        private readonly IBench bench;

        public RawTcpDispatcher(IBench bench)
        {
            this.bench = bench;
        }

        public void Dispatch(FrameReader request, FrameWriter response)
        {
            response.Reset();
            try
            {
                response.U8(StatusOk);
                Call(request.U16(), request, response);
            }
            catch (BenchError e)
            {
                response.Reset();
                response.U8(StatusBenchError);
                response.Int32(e.Code);
                response.String(e.Message);
            }
            catch (Exception e)
            {
                response.Reset();
                response.U8(StatusOtherError);
                response.String(e.Message);
            }
        }

        private void Call(int op, FrameReader r, FrameWriter w)
        {
            switch (op)
            {
                case 0: r.ExpectEnd(); bench.Ping(); break;
                case 1: { var v = r.Bool(); r.ExpectEnd(); w.Bool(bench.EchoBool(v)); break; }
                case 2: { var v = r.Int8(); r.ExpectEnd(); w.Int8(bench.EchoInt8(v)); break; }
                case 3: { var v = r.Int16(); r.ExpectEnd(); w.Int16(bench.EchoInt16(v)); break; }
                case 4: { var v = r.Int32(); r.ExpectEnd(); w.Int32(bench.EchoInt32(v)); break; }
                case 5: { var v = r.Int64(); r.ExpectEnd(); w.Int64(bench.EchoInt64(v)); break; }
                case 6: { var v = r.Float32(); r.ExpectEnd(); w.Float32(bench.EchoFloat32(v)); break; }
                case 7: { var v = r.Float64(); r.ExpectEnd(); w.Float64(bench.EchoFloat64(v)); break; }
                case 8: { var v = r.String(); r.ExpectEnd(); w.String(bench.EchoString(v)); break; }
                case 9: { var v = r.Bytes(); r.ExpectEnd(); w.Bytes(bench.EchoBytes(v)); break; }
                case 10: { var n = r.Int32(); r.ExpectEnd(); w.Bool(bench.IsPrime(n)); break; }
                case 11: { var v = r.Float64Array(); r.ExpectEnd(); w.Float64(bench.Average(v)); break; }
                case 12: { var count = r.Int32(); var seed = r.Int64(); r.ExpectEnd(); w.Float64Array(bench.RandomDoubles(count, seed)); break; }
                case 13: { var v = r.Float64Array(); r.ExpectEnd(); w.Float64Array(bench.LogTransform(v)); break; }
                case 14: { var key = r.String(); r.ExpectEnd(); StructCodec.Write(w, bench.GetRecord(key)); break; }
                case 15: { var query = r.String(); var count = r.Int32(); r.ExpectEnd(); StructCodec.Write(w, bench.SearchBooks(query, count)); break; }
                case 16: { var count = r.Int32(); r.ExpectEnd(); StructCodec.Write(w, bench.GetItems(count)); break; }
                case 17: { var code = r.Int32(); var message = r.String(); r.ExpectEnd(); bench.Fail(code, message); break; }
                default: throw new NotSupportedException("unknown operation " + op);
            }
        }
    }
}
