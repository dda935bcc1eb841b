using System;
using System.Collections.Generic;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Threading;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Harness;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// Client adapter: a WCF ChannelFactory proxy of ISoapBench (one channel, kept open, keep-alive HTTP), each
    /// operation called through the operation table (SoapOperation, SoapMapping); the declared fault comes back as
    /// BenchError.
    ///
    /// Mono's WCF HTTP channel sends through HttpWebRequest without a connection group, so every client of one server
    /// draws its connections from the default group of the server's ServicePoint, at most ConnectionLimit of them (2
    /// by default): each client raises that limit to the number of clients of the server alive, so that each may have
    /// a call on a connection at once (the load command's clients and the command loop's), and closing a client closes
    /// the group's connections (the others' next call opens a new one).
    /// </summary>
    public sealed class SoapClient : OperationClient, IMetadataClient, IClosesEachConnection
    {
        private static readonly Dictionary<ServicePoint, int> Alive = new Dictionary<ServicePoint, int>();

        private readonly Binding binding;
        private ChannelFactory<ISoapBench> factory;
        private ISoapBench proxy;
        private readonly Uri endpoint;
        private readonly ServicePoint servicePoint;
        private int disposed;

        public SoapClient(Binding binding, string host, int port)
        {
            endpoint = Address(host, port);
            // Mono's HttpWebRequest otherwise waits for "100 Continue" on every POST (~30 ms) and delays with Nagle.
            ServicePointManager.Expect100Continue = false;
            ServicePointManager.UseNagleAlgorithm = false;
            // Mono 6.8's HTTP channel reads none of the binding's proxy settings (HttpRequestChannel sets no Proxy on
            // its HttpWebRequest), so its requests take WebRequest.DefaultWebProxy: that is the binding's proxy too.
            var transport = binding.CreateBindingElements().Find<HttpTransportBindingElement>();
            if (transport != null && transport.ProxyAddress != null && !transport.UseDefaultWebProxy)
            {
                WebRequest.DefaultWebProxy = new WebProxy(transport.ProxyAddress) { BypassProxyOnLocal = transport.BypassProxyOnLocal };
            }
            this.binding = binding;
            factory = new ChannelFactory<ISoapBench>(binding, new EndpointAddress(endpoint));
            proxy = factory.CreateChannel();
            ((IClientChannel)proxy).Open();
            servicePoint = ServicePointManager.FindServicePoint(endpoint);
            lock (Alive)
            {
                int alive;
                Alive.TryGetValue(servicePoint, out alive);
                Alive[servicePoint] = ++alive;
                if (servicePoint.ConnectionLimit < alive)
                {
                    servicePoint.ConnectionLimit = alive;
                }
            }
        }

        public static Uri Address(string host, int port)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) && address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6
                ? "[" + host + "]" : host;
            return new Uri("http://" + hostText + ":" + port + SoapBindings.Path);
        }

        /// <summary>
        /// --connection per-call: the factory and its channel made once more, now, on this binding with the transport's
        /// KeepAliveEnabled off (Mono's HttpRequestChannel sets it on each HttpWebRequest: Connection: close), so each
        /// call connects anew; made per call, the factory would time WCF building it (about 5 ms against the server's
        /// 0.5), not a connection. The connection kept so far (the connect's, the vectors') is closed.
        /// </summary>
        public void CloseEachConnection()
        {
            var closing = new CustomBinding(binding);
            closing.Elements.Find<HttpTransportBindingElement>().KeepAliveEnabled = false;
            var made = new ChannelFactory<ISoapBench>(closing, new EndpointAddress(endpoint));
            var channel = made.CreateChannel();
            ((IClientChannel)channel).Open();
            CloseChannel();
            factory = made;
            proxy = channel;
            servicePoint.CloseConnectionGroup(null);
        }

        private void CloseChannel()
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

        public bool PublishedMetadata(out string reason)
        {
            return SoapMetadataCheck.Check(endpoint, out reason);
        }

        public override void Dispose()
        {
            if (Interlocked.Exchange(ref disposed, 1) != 0)
            {
                return;
            }
            CloseChannel();
            lock (Alive)
            {
                if (--Alive[servicePoint] == 0)
                {
                    Alive.Remove(servicePoint);
                }
            }
            servicePoint.CloseConnectionGroup(null);
        }

        /// <summary>
        /// False: Mono's HttpRequestChannel keeps the request of a call in one field of the channel (web_request),
        /// which a second concurrent call on the same channel overwrites before the first reads its answer through it;
        /// and an HTTP/1.1 connection carries one exchange at a time. The load command opens a client per connection.
        /// </summary>
        public override bool SharesConnection { get { return false; } }

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
