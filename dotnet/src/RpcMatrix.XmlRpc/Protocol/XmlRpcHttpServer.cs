using System;
using System.IO;
using System.Net;
using System.Xml;
using RpcMatrix.Core.Http;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>
    /// XML-RPC over HttpListener at POST /RPC2: HTTP/1.1 keep-alive, requests served concurrently
    /// (each context is handled on the thread-pool thread that received it, after re-arming the listener).
    /// With gzip (xmlrpc-gzip) answers are compressed for clients that accept gzip; gzip requests are always read.
    /// </summary>
    public sealed class XmlRpcHttpServer
    {
        public const string Path = "/RPC2";

        private readonly Func<string, object[], object> invoke;
        private readonly HttpHost host;

        /// <param name="invoke">Answers a method call; throws XmlRpcFault for a fault response.</param>
        /// <param name="gzip">Whether answers are gzip-compressed.</param>
        public XmlRpcHttpServer(Func<string, object[], object> invoke, bool gzip)
        {
            this.invoke = invoke;
            host = new HttpHost("xmlrpc", Handle, gzip);
        }

        public int Start(IPAddress address, int port)
        {
            return host.Start(address, port);
        }

        public void Stop()
        {
            host.Stop();
        }

        private void Handle(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            HttpListenerResponse response = context.Response;
            if (request.Url.AbsolutePath != Path)
            {
                Status(context, 404, "XML-RPC is served at " + Path);
                return;
            }
            if (request.HttpMethod != "POST")
            {
                response.AddHeader("Allow", "POST");
                Status(context, 405, "XML-RPC takes POST");
                return;
            }
            byte[] answer = Answer(HttpHost.ReadBody(request));
            host.Send(context, 200, "text/xml; charset=utf-8", answer);
        }

        private byte[] Answer(byte[] body)
        {
            try
            {
                XmlRpcMethodCall call = XmlRpcParser.ParseMethodCall(body);
                return XmlRpcWriter.Response(invoke(call.MethodName, call.Parameters));
            }
            catch (XmlRpcFault fault)
            {
                return XmlRpcWriter.Fault(fault.Code, fault.Message);
            }
            catch (XmlException e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.ParseError, "not well-formed XML: " + e.Message);
            }
            catch (XmlRpcFormatException e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.InvalidRequest, "invalid XML-RPC: " + e.Message);
            }
            catch (Exception e)
            {
                return XmlRpcWriter.Fault(XmlRpcFault.InternalError, e.GetType().Name + ": " + e.Message);
            }
        }

        private void Status(HttpListenerContext context, int code, string text)
        {
            host.Send(context, code, "text/plain; charset=utf-8", System.Text.Encoding.UTF8.GetBytes(text + "\n"));
        }
    }
}
