using System;
using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcMatrix.Core.Conformance;

namespace RpcMatrix.Soap
{
    /// <summary>The WCF binding of each registered SOAP protocol (idl/protocols.json's variant).</summary>
    public static class SoapBindings
    {
        public const string Path = "/bench";

        /// <summary>
        /// soap 1.1: BasicHttpBinding; soap 1.2: text encoding SOAP 1.2 without WS-Addressing over HTTP. A client's
        /// binding through a forward proxy (<paramref name="proxy"/>, HTTP_PROXY's) takes WCF's own settings for it:
        /// its ProxyAddress, not the default proxy, every address through it (the suite's servers sit at addresses a
        /// bypass would take as local); and a connection per request, as HttpPostClient's: tinyproxy 1.11 closes each
        /// client connection after its answer without saying so.
        /// </summary>
        public static Binding For(Protocol protocol, Uri proxy = null)
        {
            string security;
            protocol.Variant.TryGetValue("security", out security);
            if (security != null && security != "none")
            {
                throw new ArgumentException("protocol '" + protocol.Name + "' (security " + security + ") is not implemented in dotnet");
            }
            string soap;
            protocol.Variant.TryGetValue("soap", out soap);
            var encoding = new TextMessageEncodingBindingElement(soap == "1.2" ? MessageVersion.Soap12 : MessageVersion.Soap11, System.Text.Encoding.UTF8);
            Tune(encoding.ReaderQuotas);
            var transport = new HttpTransportBindingElement
            {
                KeepAliveEnabled = true,
                MaxReceivedMessageSize = int.MaxValue,
                MaxBufferSize = int.MaxValue,
                MaxBufferPoolSize = 64L * 1024 * 1024,
            };
            if (proxy != null)
            {
                transport.ProxyAddress = proxy;
                transport.UseDefaultWebProxy = false;
                transport.BypassProxyOnLocal = false;
                transport.KeepAliveEnabled = false;
            }
            var binding = new CustomBinding(encoding, transport)
            {
                Name = protocol.Name,
                SendTimeout = TimeSpan.FromMinutes(5),
                ReceiveTimeout = TimeSpan.FromMinutes(5),
            };
            return binding;
        }

        /// <summary>The workloads send megabytes: lift WCF's default 8 KiB strings and 16 K array limits.</summary>
        private static void Tune(System.Xml.XmlDictionaryReaderQuotas quotas)
        {
            quotas.MaxStringContentLength = int.MaxValue;
            quotas.MaxArrayLength = int.MaxValue;
            quotas.MaxBytesPerRead = int.MaxValue;
            quotas.MaxDepth = 64;
            quotas.MaxNameTableCharCount = int.MaxValue;
        }
    }
}
