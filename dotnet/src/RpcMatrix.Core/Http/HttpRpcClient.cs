using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// The client of a family that calls by name, one HTTP POST per call (XML-RPC, JSON-RPC): one HttpPostClient (a
    /// kept-alive connection, no Expect: 100-continue, Nagle off; with gzip every request compressed and the answer
    /// asked for in gzip), each call's arguments and result converted by the operation table bound to the family's
    /// mapping. The family writes Invoke: the request body, the answer read, its fault thrown as BenchError.
    /// </summary>
    public abstract class HttpRpcClient : OperationClient
    {
        private readonly MappedOperation[] table;
        private readonly HttpPostClient http;

        /// <param name="table">The operation table bound to the family's mapping (MappedOperation.Bind).</param>
        /// <param name="accept">The Accept header, or null for none.</param>
        /// <param name="gzip">The gzip variants: requests compressed, answers asked for in gzip.</param>
        protected HttpRpcClient(MappedOperation[] table, string host, int port, string path, string contentType, string accept,
            bool gzip)
        {
            this.table = table;
            http = new HttpPostClient(host, port, path, contentType, accept, gzip);
        }

        public override void Dispose()
        {
            http.Dispose();
        }

        /// <summary>
        /// False. Each call is a new HttpWebRequest, so calls from several threads are safe, but HTTP/1.1 carries one
        /// exchange at a time on a connection (Mono's HttpWebRequest does not pipeline): a second concurrent call opens
        /// a second connection of this client's group (up to the ServicePoint's limit, 2) or waits for one. The load
        /// command opens a client, so a connection group, per connection.
        /// </summary>
        public override bool SharesConnection { get { return false; } }

        protected sealed override object Call(OperationInfo op, object[] args)
        {
            MappedOperation mapped = table[op.Id];
            return mapped.ResultFromWire(Invoke(op.Name, mapped.ArgumentsToWire(args)));
        }

        /// <summary>
        /// One call by name, its parameters as the wire carries them; returns the result as the wire carries it, or
        /// throws BenchError for the family's fault (code and message unchanged: the contract carries BenchError so).
        /// </summary>
        protected abstract object Invoke(string method, object[] parameters);

        /// <summary>Posts a request body; returns the answer's body (empty for 204 No Content).</summary>
        protected byte[] Post(byte[] body)
        {
            return http.Post(body);
        }
    }
}
