using System;
using System.Net;
using RpcMatrix.Core.Harness;
using RpcMatrix.Core.Http;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Soap
{
    /// <summary>The soap family for the launcher: binding from the registry's variant, HTTP server on the suite's host with WCF's message encoder, WCF client.</summary>
    public sealed class SoapAdapter : IProtocolAdapter
    {
        public IBenchServer CreateServer(Options options)
        {
            var binding = SoapBindings.For(options.Protocol);
            var published = new SoapMetadataDocuments(options.IdlDirectory, binding.MessageVersion);
            return new SoapServer(binding, new SoapDispatcher(InjectedSpin.Served(), binding.MessageVersion), published);
        }

        public IBenchClient CreateClient(Options options)
        {
            IWebProxy proxy = HttpPostClient.EnvironmentProxy;
            Uri through = proxy == null ? null : proxy.GetProxy(SoapClient.Address(options.HostText, options.Port));
            return new SoapClient(SoapBindings.For(options.Protocol, through), options.HostText, options.Port);
        }
    }
}
