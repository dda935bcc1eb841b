using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.ServiceModel.Description;
using System.Xml;
using System.Xml.Schema;
using RpcMatrix.Core.Contract;
using WsdlDescription = System.Web.Services.Description.ServiceDescription;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// Can WCF build a client from the WSDL a server publishes? Fetches {endpoint}?wsdl by HTTP GET, following
    /// wsdl:import and xsd:import/include locations, as WCF's MetadataExchangeClient does in HttpGet mode, and imports
    /// it with WsdlImporter, as svcutil does; consumable when some imported contract has every operation of the
    /// contract (the stream operation aside), each with the WSDL's request and response wrappers. Mono 6.8's MetadataExchangeClient ignores its mode and always sends a
    /// WS-Transfer Get (SOAP 1.2, mexHttpBinding), which a ?wsdl endpoint does not answer, so the fetch is done here.
    /// Mono's WsdlImporter also differs from WCF's: it resolves xsd:import schemaLocation itself, and fails ("The global
    /// element ... has already been declared") when the MetadataSet holds the imported schema too, so the set holds the
    /// WSDL documents only (the schemas are still fetched and parsed here, to name one that cannot be).
    /// </summary>
    public static class SoapMetadataCheck
    {
        /// <summary>More documents than any WSDL of the contract needs: a bound on a server's import cycle.</summary>
        private const int MaxDocuments = 32;

        public static bool Check(Uri endpoint, out string reason)
        {
            return CheckWsdl(new Uri(endpoint + "?wsdl"), out reason);
        }

        /// <summary>As Check, for a WSDL at any address WebRequest reads (http:, file:).</summary>
        public static bool CheckWsdl(Uri wsdlAddress, out string reason)
        {
            MetadataSet metadata;
            try
            {
                metadata = Fetch(wsdlAddress);
            }
            catch (Exception e)
            {
                reason = "cannot fetch the WSDL: " + Short(e);
                return false;
            }
            try
            {
                var importer = new WsdlImporter(metadata);
                var contracts = importer.ImportAllContracts();
                var wanted = Operations.All.Where(op => !op.Returns.StartsWith("stream ")).Select(op => op.Name).ToList();
                foreach (ContractDescription contract in contracts)
                {
                    var names = contract.Operations.Select(op => op.Name).ToList();
                    if (wanted.All(names.Contains))
                    {
                        return Describes(contract, wanted, out reason);
                    }
                }
                reason = (contracts.Count == 0 ? "WsdlImporter imported no contract"
                    : "no imported contract has every operation (" + string.Join(", ", contracts.Select(c => c.Name + ": " + c.Operations.Count)) + ")")
                    + Errors(importer);
                return false;
            }
            catch (Exception e)
            {
                reason = "WsdlImporter cannot import the WSDL: " + Short(e);
                return false;
            }
        }

        /// <summary>
        /// Consumable when each operation's imported messages are the WSDL's wrappers (operation, operation + "Response"):
        /// a client built from the contract then sends what the server reads.
        /// </summary>
        private static bool Describes(ContractDescription contract, IList<string> wanted, out string reason)
        {
            var mixed = wanted.Select(name => contract.Operations.First(op => op.Name == name))
                .Where(op => Wrapper(op, MessageDirection.Input) != op.Name || Wrapper(op, MessageDirection.Output) != op.Name + "Response")
                .Select(op => op.Name + " as " + Wrapper(op, MessageDirection.Input) + "/" + Wrapper(op, MessageDirection.Output))
                .ToList();
            string built = "WsdlImporter built contract " + contract.Name + " with the contract's " + wanted.Count + " operations";
            if (mixed.Count == 0)
            {
                reason = built + " and their messages";
                return true;
            }
            reason = built + " but mixed up the messages of " + mixed.Count + " (" + string.Join(", ", mixed.Take(4)) + ")";
            return false;
        }

        private static string Wrapper(OperationDescription op, MessageDirection direction)
        {
            MessageDescription message = op.Messages.FirstOrDefault(m => m.Direction == direction);
            return message == null ? "none" : message.Body.WrapperName ?? "unwrapped";
        }

        /// <summary>The WSDL at the address and every WSDL it imports, as a MetadataSet; imported schemas fetched and parsed.</summary>
        public static MetadataSet Fetch(Uri wsdlAddress)
        {
            var metadata = new MetadataSet();
            var pending = new Queue<Uri>();
            var seen = new HashSet<string>();
            pending.Enqueue(wsdlAddress);
            seen.Add(wsdlAddress.AbsoluteUri);
            bool first = true;
            while (pending.Count > 0)
            {
                Uri address = pending.Dequeue();
                XmlDocument document = Get(address);
                var references = new List<string>();
                bool isWsdl = document.DocumentElement.NamespaceURI == SoapMetadataDocuments.WsdlNs;
                if (first && !isWsdl)
                {
                    throw new InvalidDataException("not a WSDL: root element " + document.DocumentElement.Name);
                }
                first = false;
                if (isWsdl)
                {
                    WsdlDescription wsdl = WsdlDescription.Read(new XmlNodeReader(document));
                    metadata.MetadataSections.Add(MetadataSection.CreateFromServiceDescription(wsdl));
                    references.AddRange(wsdl.Imports.Cast<System.Web.Services.Description.Import>().Select(i => i.Location));
                    foreach (XmlSchema schema in wsdl.Types.Schemas)
                    {
                        references.AddRange(Locations(schema));
                    }
                }
                else
                {
                    XmlSchema schema = XmlSchema.Read(new XmlNodeReader(document), null);
                    references.AddRange(Locations(schema));
                }
                foreach (string location in references.Where(l => !string.IsNullOrEmpty(l)))
                {
                    var next = new Uri(address, location);
                    if (seen.Add(next.AbsoluteUri))
                    {
                        if (seen.Count > MaxDocuments)
                        {
                            throw new InvalidDataException("the WSDL imports more than " + MaxDocuments + " documents");
                        }
                        pending.Enqueue(next);
                    }
                }
            }
            return metadata;
        }

        private static IEnumerable<string> Locations(XmlSchema schema)
        {
            return schema.Includes.OfType<XmlSchemaExternal>().Select(i => i.SchemaLocation);
        }

        private static XmlDocument Get(Uri address)
        {
            WebRequest request = WebRequest.Create(address);
            request.Timeout = 30000;
            using (WebResponse response = request.GetResponse())
            using (Stream body = response.GetResponseStream())
            {
                var document = new XmlDocument { XmlResolver = null };
                document.Load(body);
                return document;
            }
        }

        /// <summary>What the importer reported (its errors say why a port type gave no contract).</summary>
        private static string Errors(WsdlImporter importer)
        {
            var errors = importer.Errors.Where(e => !e.IsWarning).Select(e => e.Message).Distinct().Take(3).ToList();
            return errors.Count == 0 ? "" : ": " + string.Join("; ", errors);
        }

        private static string Short(Exception e)
        {
            string text = e.GetType().Name + ": " + string.Join(" ", e.Message.Split((char[])null, StringSplitOptions.RemoveEmptyEntries));
            return text.Length <= 300 ? text : text.Substring(0, 300) + "...";
        }
    }
}
