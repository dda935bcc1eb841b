using System;
using System.Collections.Generic;
using System.Text;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Http;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.JsonRpc
{
    /// <summary>
    /// The Bench served over JSON-RPC 2.0 at POST /jsonrpc (the HttpHost: keep-alive, requests served concurrently;
    /// with gzip, jsonrpc-gzip, answers compressed for clients that accept gzip, gzip requests always read): the
    /// specification's framing by JsonRpcDispatcher, methods by contract name through the operation table and
    /// JsonRpcMapping. A BenchError is answered as an error object with its code; a request that answers nothing
    /// (notifications only) gets 204 No Content.
    /// </summary>
    public sealed class JsonRpcServer : HttpRpcServer
    {
        public const string Path = "/jsonrpc";
        public const string ContentType = "application/json";

        private const string NotUtf8 = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error: not UTF-8\"},\"id\":null}";
        private static readonly Encoding Utf8 = new UTF8Encoding(false, true);

        private readonly JsonRpcDispatcher dispatcher;

        /// <param name="gzip">jsonrpc-gzip: answers gzip-compressed for clients that accept it.</param>
        public JsonRpcServer(IBench bench, bool gzip) : base(bench, JsonRpcMapping.Table, "JSON-RPC", Path, ContentType, gzip)
        {
            dispatcher = new JsonRpcDispatcher(Invoke);
        }

        /// <summary>Answers one method with positional params: its result, or JsonRpcError for an error object.</summary>
        public object Invoke(string method, IList<object> parameters)
        {
            try
            {
                return Serve(method, parameters);
            }
            catch (BenchError e)
            {
                throw new JsonRpcError(e.Code, e.Message);
            }
        }

        protected override byte[] Answer(byte[] body)
        {
            string answer;
            try
            {
                answer = dispatcher.Handle(Utf8.GetString(body));
            }
            catch (DecoderFallbackException)
            {
                answer = NotUtf8;
            }
            return answer == null ? null : Utf8.GetBytes(answer);
        }

        protected override Exception NoSuchMethod(string method)
        {
            return new JsonRpcError(JsonRpcError.MethodNotFound, "Method not found: " + method);
        }

        protected override Exception WrongParameterCount(string method, int expected, int given)
        {
            return new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: takes " + expected + " params, got " + given);
        }
    }
}
