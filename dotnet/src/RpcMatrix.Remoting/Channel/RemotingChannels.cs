using System;
using System.Collections;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Runtime.Remoting.Channels;
using System.Runtime.Remoting.Channels.Tcp;
using System.Runtime.Serialization.Formatters;

namespace RpcMatrix.Remoting.Channel
{
    /// <summary>The TCP channels with the binary formatter, configured once here for the server and the client.</summary>
    public static class RemotingChannels
    {
        private static readonly object ClientLock = new object();
        private static TcpClientChannel clientChannel;
        private static readonly Dictionary<TcpChannel, ConnectionThreads> Served = new Dictionary<TcpChannel, ConnectionThreads>();

        /// <summary>
        /// A server channel bound to exactly <paramref name="host"/> (port 0: the OS picks), whose ObjRefs name that
        /// address, and whose formatter deserializes at TypeFilterLevel.Low (no ObjRef, delegate or other
        /// "full trust" type in a request). Its connections are accepted and served by ConnectionThreads: each on a thread
        /// of its own at once, where Mono's accept loop added a thread 500 ms after the last when none was free.
        /// </summary>
        public static TcpChannel Server(IPAddress host, int port)
        {
            var properties = new Hashtable
            {
                { "name", "rpcmatrix-tcp-server" },
                { "port", port },
                { "bindTo", host.ToString() },
                { "machineName", UrlHost(host) },
                { "useIpAddress", true },
            };
            var serverFormatter = new BinaryServerFormatterSinkProvider { TypeFilterLevel = TypeFilterLevel.Low };
            var channel = new TcpChannel(properties, new BinaryClientFormatterSinkProvider(), serverFormatter);
            ChannelServices.RegisterChannel(channel, false);
            ConnectionThreads threads = ConnectionThreads.Take(channel);
            lock (Served)
            {
                Served[channel] = threads;
            }
            return channel;
        }

        /// <summary>The port the server channel listens on (Mono's TcpServerChannel reports the OS's pick for 0).</summary>
        public static int Port(TcpChannel channel)
        {
            return new Uri(channel.GetUrlsForUri("Bench")[0]).Port;
        }

        public static void Close(TcpChannel channel)
        {
            ConnectionThreads threads;
            lock (Served)
            {
                if (Served.TryGetValue(channel, out threads))
                {
                    Served.Remove(channel);
                }
            }
            channel.StopListening(null);
            if (threads != null)
            {
                threads.Stop();
            }
            ChannelServices.UnregisterChannel(channel);
        }

        /// <summary>The process's one client channel (the binary formatter), registered on first use.</summary>
        public static void EnsureClient()
        {
            lock (ClientLock)
            {
                if (clientChannel != null)
                {
                    return;
                }
                var properties = new Hashtable { { "name", "rpcmatrix-tcp-client" } };
                clientChannel = new TcpClientChannel(properties, new BinaryClientFormatterSinkProvider());
                ChannelServices.RegisterChannel(clientChannel, false);
            }
        }

        public static string Url(string host, int port, string uri)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) ? UrlHost(address) : host;
            return "tcp://" + hostText + ":" + port + "/" + uri;
        }

        private static string UrlHost(IPAddress host)
        {
            return host.AddressFamily == AddressFamily.InterNetworkV6 ? "[" + host + "]" : host.ToString();
        }
    }
}
