using System;
using System.Collections.Generic;
using System.Net;
using System.Text;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// The server of a family that calls by name, one HTTP POST per request to one path (XML-RPC at /RPC2, JSON-RPC
    /// at /jsonrpc), on the HttpHost: another path is answered 404, another method 405, a POST's body (bounded, gzip
    /// inflated) goes to the family's Answer, whose bytes go back with status 200 (none: 204 No Content). Serve calls
    /// an operation by its contract name through the operation table bound to the family's mapping; the family writes
    /// the request and answer formats and its faults.
    /// </summary>
    public abstract class HttpRpcServer : IBenchServer
    {
        private readonly IBench bench;
        private readonly MappedOperation[] table;
        private readonly string title;
        private readonly string path;
        private readonly string contentType;
        private readonly HttpHost host;

        /// <param name="bench">What the calls are answered with.</param>
        /// <param name="table">The operation table bound to the family's mapping (MappedOperation.Bind).</param>
        /// <param name="title">The protocol as the 404 and 405 answers name it ("XML-RPC").</param>
        /// <param name="path">Where requests are served ("/RPC2").</param>
        /// <param name="contentType">The content type of every answer Answer writes.</param>
        /// <param name="gzip">Whether answers are gzip-compressed for clients that accept gzip (the gzip variants).</param>
        protected HttpRpcServer(IBench bench, MappedOperation[] table, string title, string path, string contentType, bool gzip)
        {
            this.bench = bench;
            this.table = table;
            this.title = title;
            this.path = path;
            this.contentType = contentType;
            host = new HttpHost(title, Handle, gzip);
        }

        public int Start(IPAddress address, int port)
        {
            return host.Start(address, port);
        }

        public void Stop()
        {
            host.Stop();
        }

        /// <summary>The answer to a request body, or null when there is none to send (answered 204 No Content).</summary>
        protected abstract byte[] Answer(byte[] body);

        /// <summary>The family's fault for a method the contract does not have.</summary>
        protected abstract Exception NoSuchMethod(string method);

        /// <summary>The family's fault for a call with the wrong number of parameters.</summary>
        protected abstract Exception WrongParameterCount(string method, int expected, int given);

        /// <summary>
        /// Calls the contract operation named method with its parameters as the wire carries them; returns the result
        /// for the wire. A BenchError, and the mapping's errors for a value that does not fit, propagate.
        /// </summary>
        protected object Serve(string method, IList<object> parameters)
        {
            OperationInfo op = Operations.ByName(method);
            MappedOperation mapped = op == null ? null : table[op.Id];
            if (mapped == null)
            {
                throw NoSuchMethod(method);
            }
            if (parameters.Count != op.ParamTypes.Length)
            {
                throw WrongParameterCount(method, op.ParamTypes.Length, parameters.Count);
            }
            return mapped.Serve(bench, parameters);
        }

        private void Handle(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            HttpListenerResponse response = context.Response;
            if (request.Url.AbsolutePath != path)
            {
                Text(context, 404, title + " is served at " + path);
                return;
            }
            if (request.HttpMethod != "POST")
            {
                response.AddHeader("Allow", "POST");
                Text(context, 405, title + " takes POST");
                return;
            }
            byte[] answer = Answer(HttpHost.ReadBody(request));
            if (answer == null)
            {
                response.StatusCode = 204;
                response.ContentLength64 = 0;
                response.OutputStream.Close();
                return;
            }
            host.Send(context, 200, contentType, answer);
        }

        private void Text(HttpListenerContext context, int status, string line)
        {
            host.Send(context, status, "text/plain; charset=utf-8", Encoding.UTF8.GetBytes(line + "\n"));
        }
    }
}
