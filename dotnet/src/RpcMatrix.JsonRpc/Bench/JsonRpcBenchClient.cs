using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.JsonRpc.Bench
{
    /// <summary>Client adapter: each contract operation as a JSON-RPC call through JsonRpcMapping; an error object comes back as BenchError.</summary>
    public sealed class JsonRpcBenchClient : OperationClient
    {
        private static readonly MappedOperation[] Table = MappedOperation.Bind(JsonRpcMapping.ToWire, JsonRpcMapping.FromWire);

        private readonly JsonRpcHttpClient http;

        /// <param name="gzip">jsonrpc-gzip: requests compressed, answers asked for in gzip.</param>
        public JsonRpcBenchClient(string host, int port, bool gzip)
        {
            http = new JsonRpcHttpClient(host, port, gzip);
        }

        public override void Dispose()
        {
            http.Dispose();
        }

        /// <summary>
        /// A call; an error object is the contract's BenchError (code and message unchanged), since the contract
        /// carries BenchError as exactly that.
        /// </summary>
        protected override object Call(OperationInfo op, object[] args)
        {
            MappedOperation mapped = Table[op.Id];
            object answer;
            try
            {
                answer = http.Invoke(op.Name, mapped.ArgumentsToWire(args));
            }
            catch (JsonRpcError e)
            {
                throw new BenchError(e.Code, e.Message);
            }
            return mapped.ResultFromWire(answer);
        }
    }
}
