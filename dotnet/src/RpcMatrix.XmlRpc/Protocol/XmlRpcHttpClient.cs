using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>
    /// XML-RPC over HttpWebRequest: one keep-alive connection reused for every call, no Expect: 100-continue
    /// round trip, Nagle off.
    /// </summary>
    public sealed class XmlRpcHttpClient : IDisposable
    {
        private readonly Uri uri;
        private readonly ServicePoint servicePoint;

        public XmlRpcHttpClient(string host, int port)
        {
            IPAddress address;
            string hostText = IPAddress.TryParse(host, out address) && address.AddressFamily == AddressFamily.InterNetworkV6
                ? "[" + host + "]" : host;
            uri = new Uri("http://" + hostText + ":" + port + XmlRpcHttpServer.Path);
            ServicePointManager.Expect100Continue = false;
            ServicePointManager.UseNagleAlgorithm = false;
            servicePoint = ServicePointManager.FindServicePoint(uri);
            servicePoint.Expect100Continue = false;
            servicePoint.UseNagleAlgorithm = false;
        }

        /// <summary>Calls a method; returns its value, or throws XmlRpcFault for a fault response.</summary>
        public object Invoke(string methodName, params object[] parameters)
        {
            byte[] body = XmlRpcWriter.MethodCall(methodName, parameters);
            var request = (HttpWebRequest)WebRequest.Create(uri);
            request.Method = "POST";
            request.ContentType = "text/xml; charset=utf-8";
            request.UserAgent = "rpcmatrix-dotnet";
            request.KeepAlive = true;
            request.Proxy = null;
            request.ContentLength = body.Length;
            request.Timeout = 300000;
            request.ReadWriteTimeout = 300000;
            using (Stream stream = request.GetRequestStream())
            {
                stream.Write(body, 0, body.Length);
            }
            HttpWebResponse response;
            try
            {
                response = (HttpWebResponse)request.GetResponse();
            }
            catch (WebException e) when (e.Response is HttpWebResponse)
            {
                using (var failed = (HttpWebResponse)e.Response)
                {
                    throw new WebException("HTTP " + (int)failed.StatusCode + " " + failed.StatusDescription + " from " + uri, e);
                }
            }
            using (response)
            using (Stream stream = response.GetResponseStream())
            {
                var buffer = response.ContentLength > 0 ? new MemoryStream((int)response.ContentLength) : new MemoryStream();
                stream.CopyTo(buffer);
                return XmlRpcParser.ParseResponse(buffer.ToArray());
            }
        }

        public void Dispose()
        {
            servicePoint.CloseConnectionGroup(null);
        }
    }
}
