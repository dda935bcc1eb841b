using System;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Threading;
using RpcMatrix.Core.Hosting;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// Serves the Bench on WCF's channel layer: the binding's IReplyChannel listener, each request dispatched by
    /// SoapDispatcher. Not ServiceHost: Mono 6.8's ServiceHost listener loop sleeps 100 ms before accepting each
    /// channel and HTTP gives one channel per request, so every call waited ~100 ms (see dotnet/README.md).
    /// An HTTP GET reaches the channel as a MessageVersion.None message: answered from SoapMetadataDocuments (?wsdl).
    /// </summary>
    public sealed class SoapChannelServer : IBenchServer
    {
        private readonly Binding binding;
        private readonly SoapDispatcher dispatcher;
        private readonly SoapMetadataDocuments metadata;
        private IChannelListener<IReplyChannel> listener;
        private Uri listenUri;
        private volatile bool stopping;

        /// <param name="metadata">what GET answers (?wsdl, ?xsd=bench.xsd); null: every GET is a 404</param>
        public SoapChannelServer(Binding binding, SoapDispatcher dispatcher, SoapMetadataDocuments metadata = null)
        {
            this.binding = binding;
            this.dispatcher = dispatcher;
            this.metadata = metadata;
        }

        public int Start(IPAddress host, int port)
        {
            if (port == 0)
            {
                port = FreePort(host);
            }
            string hostText = host.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? "[" + host + "]" : host.ToString();
            listenUri = new Uri("http://" + hostText + ":" + port + SoapBindings.Path);
            listener = binding.BuildChannelListener<IReplyChannel>(listenUri, new BindingParameterCollection());
            listener.Open();
            var acceptor = new Thread(AcceptLoop) { IsBackground = true, Name = "soap-accept" };
            acceptor.Start();
            return port;
        }

        public void Stop()
        {
            stopping = true;
            try
            {
                listener.Close(TimeSpan.FromSeconds(2));
            }
            catch (Exception)
            {
                listener.Abort();
            }
        }

        /// <summary>Accepts channels on one thread; each is served on a thread-pool thread.</summary>
        private void AcceptLoop()
        {
            while (!stopping)
            {
                IReplyChannel channel;
                try
                {
                    channel = listener.AcceptChannel(TimeSpan.MaxValue);
                }
                catch (Exception e)
                {
                    if (!stopping)
                    {
                        Console.Error.WriteLine("soap server: accept failed: " + e.Message);
                    }
                    continue;
                }
                if (channel == null)
                {
                    continue;
                }
                ThreadPool.QueueUserWorkItem(Serve, channel);
            }
        }

        private void Serve(object state)
        {
            var channel = (IReplyChannel)state;
            try
            {
                channel.Open();
                RequestContext context;
                while (!stopping && channel.TryReceiveRequest(TimeSpan.FromSeconds(30), out context) && context != null)
                {
                    using (Message request = context.RequestMessage)
                    {
                        // One reference comparison per call: SOAP requests carry the binding's envelope, GETs none.
                        Message reply = request.Version.Envelope == EnvelopeVersion.None ? Published(request) : dispatcher.Dispatch(request);
                        context.Reply(reply);
                        context.Close();
                    }
                }
                channel.Close();
            }
            catch (Exception e)
            {
                if (!stopping)
                {
                    Console.Error.WriteLine("soap server: " + e.GetType().Name + ": " + e.Message);
                }
                channel.Abort();
            }
        }

        private Message Published(Message request)
        {
            return metadata == null ? SoapMetadataDocuments.NotFound(binding.MessageVersion)
                : metadata.Answer(request, listenUri, binding.MessageVersion);
        }

        /// <summary>WCF's HTTP listener needs a concrete port: take one the system hands out, then free it.</summary>
        private static int FreePort(IPAddress host)
        {
            var probe = new System.Net.Sockets.TcpListener(host, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            return port;
        }
    }
}
