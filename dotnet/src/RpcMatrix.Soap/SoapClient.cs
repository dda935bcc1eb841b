using System;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// Client adapter: a WCF ChannelFactory proxy of ISoapBench (one channel, kept open, keep-alive HTTP), each
    /// operation called through the operation table (SoapOperation, SoapMapping); the declared fault comes back as
    /// BenchError.
    /// </summary>
    public sealed class SoapClient : OperationClient, IMetadataClient
    {
        private readonly ChannelFactory<ISoapBench> factory;
        private readonly ISoapBench proxy;
        private readonly Uri endpoint;

        public SoapClient(Binding binding, string host, int port)
        {
            endpoint = Address(host, port);
            // Mono's HttpWebRequest otherwise waits for "100 Continue" on every POST (~30 ms) and delays with Nagle.
            ServicePointManager.Expect100Continue = false;
            ServicePointManager.UseNagleAlgorithm = false;
            factory = new ChannelFactory<ISoapBench>(binding, new EndpointAddress(Address(host, port)));
            proxy = factory.CreateChannel();
            ((IClientChannel)proxy).Open();
        }

        public static Uri Address(string host, int port)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) && address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6
                ? "[" + host + "]" : host;
            return new Uri("http://" + hostText + ":" + port + SoapBindings.Path);
        }

        public bool PublishedMetadata(out string reason)
        {
            return SoapMetadataCheck.Check(endpoint, out reason);
        }

        public override void Dispose()
        {
            try
            {
                ((IClientChannel)proxy).Close();
                factory.Close();
            }
            catch (Exception)
            {
                factory.Abort();
            }
        }

        protected override object Call(OperationInfo op, object[] args)
        {
            try
            {
                return SoapOperation.Table[op.Id].Call(proxy, args);
            }
            catch (FaultException fault)
            {
                throw SoapFaults.ToBenchError(fault);
            }
        }
    }
}
