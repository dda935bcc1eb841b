using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// What the SOAP server publishes on HTTP GET, as WCF publishes a contract-first service: the contract's own WSDL
    /// (idl/bench.wsdl) at {endpoint}?wsdl with the binding and port of the SOAP version served, that port's address
    /// set to the endpoint and its xsd:import pointed at {endpoint}?xsd=bench.xsd, which serves idl/bench.xsd.
    /// Documents are prepared once; a GET only clones and addresses the WSDL.
    /// </summary>
    public sealed class SoapMetadataDocuments
    {
        public const string WsdlNs = "http://schemas.xmlsoap.org/wsdl/";
        public const string Soap11Ns = "http://schemas.xmlsoap.org/wsdl/soap/";
        public const string Soap12Ns = "http://schemas.xmlsoap.org/wsdl/soap12/";
        public const string XsdNs = "http://www.w3.org/2001/XMLSchema";
        private const string SchemaFile = "bench.xsd";

        private readonly XmlDocument wsdl;
        private readonly XmlDocument schema;

        public SoapMetadataDocuments(string idlDirectory, MessageVersion version)
        {
            wsdl = Load(Path.Combine(idlDirectory, "bench.wsdl"));
            schema = Load(Path.Combine(idlDirectory, SchemaFile));
            KeepBindingsOf(wsdl, version.Envelope == EnvelopeVersion.Soap12 ? Soap12Ns : Soap11Ns);
        }

        /// <summary>The query that serves the schema (what the published WSDL's xsd:import names).</summary>
        public static string SchemaQuery
        {
            get { return "xsd=" + SchemaFile; }
        }

        /// <summary>The WSDL for one endpoint address: soap:address and xsd:import schemaLocation rewritten to it.</summary>
        public XmlDocument Wsdl(Uri endpoint)
        {
            XmlDocument copy;
            lock (wsdl)
            {
                copy = (XmlDocument)wsdl.CloneNode(true);
            }
            foreach (XmlElement address in Elements(copy, Soap11Ns, "address").Concat(Elements(copy, Soap12Ns, "address")))
            {
                address.SetAttribute("location", endpoint.ToString());
            }
            foreach (XmlElement import in Elements(copy, XsdNs, "import"))
            {
                import.SetAttribute("schemaLocation", endpoint + "?" + SchemaQuery);
            }
            return copy;
        }

        /// <summary>What a GET of the endpoint with this query answers: the addressed WSDL, the schema, or null (404).</summary>
        /// <param name="hostHeader">the request's Host, which names the endpoint when the server listens on every address</param>
        public XmlDocument Answer(string query, string hostHeader, Uri listenUri)
        {
            query = query ?? "";
            if (string.Equals(query, "wsdl", StringComparison.OrdinalIgnoreCase))
            {
                return Wsdl(Published(listenUri, hostHeader));
            }
            if (query == SchemaQuery)
            {
                lock (schema)
                {
                    return (XmlDocument)schema.CloneNode(true);
                }
            }
            return null;
        }

        /// <summary>The listen address, or the request's Host when the server listens on every address.</summary>
        private static Uri Published(Uri listenUri, string host)
        {
            IPAddress address;
            bool any = IPAddress.TryParse(listenUri.Host.Trim('[', ']'), out address)
                && (address.Equals(IPAddress.Any) || address.Equals(IPAddress.IPv6Any));
            Uri fromHost;
            if (any && !string.IsNullOrEmpty(host) && Uri.TryCreate("http://" + host + listenUri.AbsolutePath, UriKind.Absolute, out fromHost))
            {
                return fromHost;
            }
            return listenUri;
        }

        /// <summary>Drops the bindings (and their ports) of the other SOAP version: this endpoint does not serve them.</summary>
        private static void KeepBindingsOf(XmlDocument document, string soapNs)
        {
            var dropped = new HashSet<string>();
            foreach (XmlElement binding in Elements(document, WsdlNs, "binding").ToList())
            {
                bool served = binding.ChildNodes.OfType<XmlElement>().Any(e => e.LocalName == "binding" && e.NamespaceURI == soapNs);
                if (!served)
                {
                    dropped.Add(binding.GetAttribute("name"));
                    binding.ParentNode.RemoveChild(binding);
                }
            }
            foreach (XmlElement port in Elements(document, WsdlNs, "port").ToList())
            {
                string bindingName = port.GetAttribute("binding");
                if (dropped.Contains(bindingName.Substring(bindingName.IndexOf(':') + 1)))
                {
                    port.ParentNode.RemoveChild(port);
                }
            }
        }

        private static IEnumerable<XmlElement> Elements(XmlDocument document, string ns, string localName)
        {
            return document.GetElementsByTagName(localName, ns).OfType<XmlElement>().ToList();
        }

        private static XmlDocument Load(string path)
        {
            var document = new XmlDocument();
            using (XmlReader reader = XmlReader.Create(path, new XmlReaderSettings { IgnoreComments = true }))
            {
                document.Load(reader);
            }
            return document;
        }
    }
}
