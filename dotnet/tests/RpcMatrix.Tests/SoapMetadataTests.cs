using System;
using System.IO;
using System.Linq;
using System.Net;
using System.ServiceModel.Channels;
using System.Xml;
using NUnit.Framework;
using RpcMatrix.Core.Conformance;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Reference;
using RpcMatrix.Soap;

namespace RpcMatrix.Tests
{
    /// <summary>The channel server publishes idl/bench.wsdl at ?wsdl (and bench.xsd where it imports it), and WCF reads it.</summary>
    [TestFixture]
    public class SoapMetadataTests
    {
        private const string Wsdl = SoapMetadataDocuments.WsdlNs;
        private const string Xsd = SoapMetadataDocuments.XsdNs;

        private static SoapServer Start(string protocol, out Uri endpoint)
        {
            Protocol p = IdlFiles.Load(IdlPaths.Directory).Registry.Get(protocol);
            Binding binding = SoapBindings.For(p);
            var server = new SoapServer(binding, new SoapDispatcher(new ReferenceBench(), binding.MessageVersion),
                new SoapMetadataDocuments(IdlPaths.Directory, binding.MessageVersion));
            int port = server.Start(IPAddress.Loopback, 0);
            endpoint = SoapClient.Address("127.0.0.1", port);
            return server;
        }

        private static XmlDocument Get(string url, out string contentType)
        {
            var request = (HttpWebRequest)WebRequest.Create(url);
            request.Timeout = 30000;
            using (var response = (HttpWebResponse)request.GetResponse())
            using (Stream body = response.GetResponseStream())
            {
                Assert.AreEqual(HttpStatusCode.OK, response.StatusCode);
                contentType = response.ContentType;
                var document = new XmlDocument();
                document.Load(body);
                return document;
            }
        }

        private static XmlDocument Idl(string file)
        {
            var document = new XmlDocument();
            document.Load(Path.Combine(IdlPaths.Directory, file));
            return document;
        }

        private static XmlNamespaceManager Names(XmlDocument document)
        {
            var names = new XmlNamespaceManager(document.NameTable);
            names.AddNamespace("wsdl", Wsdl);
            names.AddNamespace("xs", Xsd);
            names.AddNamespace("soap", SoapMetadataDocuments.Soap11Ns);
            names.AddNamespace("soap12", SoapMetadataDocuments.Soap12Ns);
            return names;
        }

        private static string[] Select(XmlDocument document, string xpath, string attribute)
        {
            return document.SelectNodes(xpath, Names(document)).OfType<XmlElement>().Select(e => e.GetAttribute(attribute)).ToArray();
        }

        /// <summary>idl/bench.wsdl with its schemaLocation made absolute: Mono's importer resolves a relative one against
        /// the working directory.</summary>
        private static Uri ContractWsdlFile()
        {
            XmlDocument contract = Idl("bench.wsdl");
            foreach (XmlElement import in contract.SelectNodes("//wsdl:types//xs:import", Names(contract)))
            {
                import.SetAttribute("schemaLocation", new Uri(Path.Combine(IdlPaths.Directory, import.GetAttribute("schemaLocation"))).AbsoluteUri);
            }
            string path = Path.Combine(Path.GetTempPath(), "rpcmatrix-bench-" + Guid.NewGuid().ToString("N") + ".wsdl");
            contract.Save(path);
            return new Uri(path);
        }

        [TestCase("soap11", "soap")]
        [TestCase("soap12", "soap12")]
        public void PublishesTheContractsWsdlAndSchemaAtTheEndpoint(string protocol, string soapPrefix)
        {
            Uri endpoint;
            SoapServer server = Start(protocol, out endpoint);
            try
            {
                string contentType;
                XmlDocument published = Get(endpoint + "?wsdl", out contentType);
                StringAssert.StartsWith("text/xml", contentType);
                XmlDocument contract = Idl("bench.wsdl");
                foreach (string xpath in new[] { "//wsdl:portType/wsdl:operation", "//wsdl:message/wsdl:part" })
                {
                    string attribute = xpath.EndsWith("part") ? "element" : "name";
                    CollectionAssert.AreEqual(Select(contract, xpath, attribute), Select(published, xpath, attribute), xpath);
                }
                CollectionAssert.AreEqual(new[] { endpoint.ToString() }, Select(published, "//wsdl:port/" + soapPrefix + ":address", "location"),
                    "one port, of the SOAP version served, at the endpoint served");
                Assert.AreEqual(1, published.SelectNodes("//wsdl:binding", Names(published)).Count);

                string[] imports = Select(published, "//wsdl:types//xs:import", "schemaLocation");
                Assert.AreEqual(1, imports.Length);
                StringAssert.StartsWith(endpoint.ToString(), imports[0]);
                XmlDocument schema = Get(imports[0], out contentType);
                const string topLevel = "/xs:schema/xs:element | /xs:schema/xs:complexType";
                CollectionAssert.AreEqual(Select(Idl("bench.xsd"), topLevel, "name"), Select(schema, topLevel, "name"));
            }
            finally
            {
                server.Stop();
            }
        }

        /// <summary>
        /// WCF fetches and imports the published WSDL into a contract with every operation, and judges it exactly as it
        /// judges idl/bench.wsdl read from disk: Mono 6.8's WsdlImporter gives some operations another operation's
        /// messages (echoBool gets getItems's), a finding about Mono's client stack that the published WSDL shares
        /// with the contract's own file.
        /// </summary>
        [TestCase("soap11")]
        [TestCase("soap12")]
        public void WcfImportsThePublishedWsdlAsTheContractsOwn(string protocol)
        {
            Uri endpoint;
            SoapServer server = Start(protocol, out endpoint);
            try
            {
                string reason;
                bool consumable = SoapMetadataCheck.Check(endpoint, out reason);
                string contractReason;
                Uri contractFile = ContractWsdlFile();
                bool contractConsumable = SoapMetadataCheck.CheckWsdl(contractFile, out contractReason);
                File.Delete(contractFile.LocalPath);
                // bench.wsdl's operations: the contract's, streams aside.
                int operations = Operations.All.Count(op => !op.IsStream);
                StringAssert.StartsWith("WsdlImporter built contract Bench with the contract's " + operations + " operations", reason);
                Assert.AreEqual(contractReason, reason);
                Assert.AreEqual(contractConsumable, consumable);
                if (!consumable)
                {
                    StringAssert.Contains("but mixed up the messages of 6 (echoBool as getItems/getItemsResponse", reason);
                }
            }
            finally
            {
                server.Stop();
            }
        }

        [Test]
        public void AnyOtherGetIsNotFoundAndSoapCallsStillWork()
        {
            Uri endpoint;
            SoapServer server = Start("soap11", out endpoint);
            try
            {
                var request = (HttpWebRequest)WebRequest.Create(endpoint + "?xsd=other.xsd");
                request.Timeout = 30000;
                var error = Assert.Throws<WebException>(() => request.GetResponse().Dispose());
                Assert.AreEqual(HttpStatusCode.NotFound, ((HttpWebResponse)error.Response).StatusCode);
                using (var client = new SoapClient(SoapBindings.For(IdlFiles.Load(IdlPaths.Directory).Registry.Get("soap11")), "127.0.0.1", endpoint.Port))
                {
                    Assert.AreEqual(42, client.EchoInt32(42));
                }
            }
            finally
            {
                server.Stop();
            }
        }
    }
}
