using System;
using System.IO;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Http;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// Serves the Bench at POST /bench: HTTP by the suite's HttpHost (contexts served concurrently, bodies
    /// bounded to 64 MiB, answers with Content-Length), messages by WCF (the binding's MessageEncoder reads the
    /// request and writes the reply, SoapDispatcher answers). Not WCF's HTTP transport: Mono 6.8's reply channel
    /// listener stops answering anyone while one connection holds half a request, and never answers a request
    /// that does not parse (dotnet/README.md). GET ?wsdl and ?xsd=bench.xsd answer SoapMetadataDocuments.
    /// </summary>
    public sealed class SoapServer : IBenchServer
    {
        private readonly MessageVersion version;
        private readonly MessageEncoder encoder;
        private readonly SoapDispatcher dispatcher;
        private readonly SoapMetadataDocuments metadata;
        private readonly HttpHost host;
        private Uri listenUri;

        /// <param name="metadata">what GET answers (?wsdl, ?xsd=bench.xsd); null: every GET is a 404</param>
        public SoapServer(Binding binding, SoapDispatcher dispatcher, SoapMetadataDocuments metadata = null)
        {
            version = binding.MessageVersion;
            encoder = binding.CreateBindingElements().Find<MessageEncodingBindingElement>().CreateMessageEncoderFactory().Encoder;
            this.dispatcher = dispatcher;
            this.metadata = metadata;
            host = new HttpHost("soap server", Handle, false);
        }

        public int Start(IPAddress address, int port)
        {
            int bound = host.Start(address, port);
            string hostText = address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? "[" + address + "]" : address.ToString();
            listenUri = new Uri("http://" + hostText + ":" + bound + SoapBindings.Path);
            return bound;
        }

        public void Stop()
        {
            host.Stop();
        }

        private void Handle(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            if (request.Url.AbsolutePath != SoapBindings.Path)
            {
                host.Send(context, 404, "text/plain; charset=utf-8", Encoding.UTF8.GetBytes("no endpoint at " + request.Url.AbsolutePath + "\n"));
                return;
            }
            if (request.HttpMethod == "GET")
            {
                Get(context);
                return;
            }
            if (request.HttpMethod != "POST")
            {
                context.Response.AddHeader("Allow", "GET, POST");
                host.Send(context, 405, "text/plain; charset=utf-8", Encoding.UTF8.GetBytes("POST a SOAP request, or GET ?wsdl\n"));
                return;
            }
            byte[] body = HttpHost.ReadBody(request);
            string contentType = request.ContentType ?? "";
            if (!Supported(contentType))
            {
                // SOAP 1.2's HTTP binding (and WCF's transport) answer 415; the body says why, as a Sender fault.
                Reply(context, 415, dispatcher.SenderFault("the content type '" + contentType + "' is not " + encoder.MediaType
                    + " (" + (version.Envelope == EnvelopeVersion.Soap12 ? "SOAP 1.2" : "SOAP 1.1") + ")"));
                return;
            }
            Message message;
            try
            {
                message = encoder.ReadMessage(new MemoryStream(body, false), int.MaxValue, contentType);
                SetAction(message, request, contentType, body);
            }
            catch (Exception e)
            {
                Reply(context, 500, dispatcher.SenderFault("the request is not a SOAP envelope: " + e.Message));
                return;
            }
            using (message)
            {
                Message reply = dispatcher.Dispatch(message);
                Reply(context, reply.IsFault ? 500 : 200, reply);
            }
        }

        /// <summary>
        /// The action as WCF's HTTP transport sets it: SOAP 1.1's SOAPAction header, SOAP 1.2's content type's action
        /// parameter (Mono's WCF client sends SOAP 1.2's action as a SOAPAction header: taken too). With none, the
        /// action of the body's wrapper element, found on a second read of the bytes: the dispatcher's own fallback
        /// re-writes the message, and WCF's writer sends CR raw, which the re-read turns into LF.
        /// </summary>
        private void SetAction(Message message, HttpListenerRequest request, string contentType, byte[] body)
        {
            if (message.Headers.Action != null)
            {
                return;
            }
            string action = version.Envelope == EnvelopeVersion.Soap12 ? ActionParameter(contentType) : null;
            action = Unquoted(action ?? request.Headers["SOAPAction"]);
            if (action == null)
            {
                using (Message peek = encoder.ReadMessage(new MemoryStream(body, false), int.MaxValue, contentType))
                {
                    action = dispatcher.ActionOfBody(peek);
                }
            }
            if (action != null)
            {
                message.Headers.Action = action;
            }
        }

        private static string Unquoted(string action)
        {
            action = action == null ? null : action.Trim().Trim('"');
            return string.IsNullOrEmpty(action) ? null : action;
        }

        /// <summary>Whether the encoder reads this content type; Mono's encoder throws on an empty or malformed one.</summary>
        private bool Supported(string contentType)
        {
            try
            {
                return contentType.Length > 0 && encoder.IsContentTypeSupported(contentType);
            }
            catch (Exception)
            {
                return false;
            }
        }

        /// <summary>application/soap+xml's action parameter, unquoted; null when absent.</summary>
        private static string ActionParameter(string contentType)
        {
            foreach (string part in contentType.Split(';'))
            {
                string p = part.Trim();
                if (p.StartsWith("action=", StringComparison.OrdinalIgnoreCase))
                {
                    return p.Substring("action=".Length).Trim('"');
                }
            }
            return null;
        }

        private void Reply(HttpListenerContext context, int status, Message reply)
        {
            var buffer = new MemoryStream();
            using (reply)
            {
                encoder.WriteMessage(reply, buffer);
            }
            host.Send(context, status, encoder.ContentType, buffer.ToArray());
        }

        private void Get(HttpListenerContext context)
        {
            string query = context.Request.Url.Query.TrimStart('?');
            XmlDocument document = metadata == null ? null : metadata.Answer(query, context.Request.Headers["Host"], listenUri);
            if (document == null)
            {
                host.Send(context, 404, "text/plain; charset=utf-8", Encoding.UTF8.GetBytes("no document for ?" + query + "\n"));
                return;
            }
            var buffer = new MemoryStream();
            using (XmlWriter writer = XmlWriter.Create(buffer, new XmlWriterSettings { Encoding = new UTF8Encoding(false) }))
            {
                document.WriteTo(writer);
            }
            host.Send(context, 200, "text/xml; charset=utf-8", buffer.ToArray());
        }
    }
}
