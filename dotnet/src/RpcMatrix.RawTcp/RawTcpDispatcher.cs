using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.RawTcp
{
    /// <summary>Server side: decodes one request body, calls the Bench, encodes the response body (RawTcpOperation).</summary>
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

        private void Call(int id, FrameReader request, FrameWriter response)
        {
            RawTcpOperation op = RawTcpOperation.ById(id);
            if (op == null)
            {
                throw new NotSupportedException("unknown operation " + id);
            }
            op.Serve(bench, request, response);
        }
    }
}
