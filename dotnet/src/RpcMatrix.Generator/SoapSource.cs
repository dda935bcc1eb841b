using System;
using System.Linq;

namespace RpcMatrix.Generator
{
    /// <summary>
    /// SOAP's typed contract, bench.wsdl's port type as WCF reads it: ISoapBench (one [OperationContract] per
    /// operation, action "urn:rpcmatrix:bench:" + name, reply action + "Response", [FaultContract] of
    /// BenchErrorDetail where the operation raises BenchError) and its document/literal wrapped message contracts
    /// for XmlSerializer (the wrapper element is the operation, or the operation + "Response"; its children the
    /// parameters, or "result"; sequences repeated elements). Members are the .NET types SoapMapping converts:
    /// xs:double and xs:float as their text, structs as SoapTypes.cs' classes, and the strings of an operation that
    /// answers a string (the echo) as SoapText, which keeps CR. A stream is not carried (bench.wsdl has none).
    /// </summary>
    public static class SoapSource
    {
        private const string Format = "[XmlSerializerFormat(Style = OperationFormatStyle.Document, Use = OperationFormatUse.Literal)]";

        public static string Write(Contract contract)
        {
            Operation[] operations = contract.Operations.Where(op => !op.IsStream).ToArray();
            var file = new SourceFile();
            file.Line("using System.ServiceModel;");
            file.Line("using System.Xml.Serialization;");
            file.Line();
            file.Line("namespace RpcMatrix.Soap.Contract");
            file.Line("{");
            file.Line("[ServiceContract(Name = \"Bench\", Namespace = BenchNamespace.Uri)]");
            file.Line(Format);
            file.Line("public interface ISoapBench");
            file.Line("{");
            foreach (Operation op in operations)
            {
                file.Line("[OperationContract(Name = \"" + op.Name + "\", Action = \"urn:rpcmatrix:bench:" + op.Name
                    + "\", ReplyAction = \"urn:rpcmatrix:bench:" + op.Name + "Response\")]");
                // Mono's ChannelFactory ignores the interface's format: every operation carries it too.
                file.Line(Format);
                if (op.Raises == "BenchError")
                {
                    file.Line("[FaultContract(typeof(BenchErrorDetail), Name = \"BenchError\", Namespace = BenchNamespace.Uri)]");
                }
                file.Line(op.Method + "Response " + op.Method + "(" + op.Method + "Request request);");
                file.Line();
            }
            file.Line("}");
            foreach (Operation op in operations)
            {
                bool echo = op.Returns == "string";
                file.Line();
                Message(file, op.Method + "Request", op.Name, op.Parameters.Select(p => Member(contract, p.Name, p.Type, echo)).ToArray());
                file.Line();
                Message(file, op.Method + "Response", op.Name + "Response",
                    op.IsVoid ? new string[0] : new[] { Member(contract, "result", op.Returns, echo) });
            }
            file.Line("}");
            return file.ToString();
        }

        private static void Message(SourceFile file, string className, string wrapper, string[] members)
        {
            file.Line("[MessageContract(IsWrapped = true, WrapperName = \"" + wrapper + "\", WrapperNamespace = BenchNamespace.Uri)]");
            file.Line("public sealed class " + className);
            file.Line("{");
            for (int i = 0; i < members.Length; i++)
            {
                file.Line(members[i].Replace("{order}", i.ToString(System.Globalization.CultureInfo.InvariantCulture)));
            }
            file.Line("}");
        }

        /// <summary>One body member, its element named as the contract names it; a sequence as repeated elements.</summary>
        private static string Member(Contract contract, string name, string type, bool echo)
        {
            string wireType = WireType(contract, type, echo);
            string repeated = wireType.EndsWith("[]", StringComparison.Ordinal) && type != "bytes" ? "[XmlElement(\"" + name + "\")] " : "";
            return "[MessageBodyMember(Name = \"" + name + "\", Namespace = BenchNamespace.Uri, Order = {order})] " + repeated
                + "public " + wireType + " " + CSharp.Pascal(name) + ";";
        }

        /// <summary>The member type SoapMapping converts a contract type into.</summary>
        private static string WireType(Contract contract, string type, bool echo)
        {
            if (type.EndsWith("[]", StringComparison.Ordinal))
            {
                return WireType(contract, type.Substring(0, type.Length - 2), false) + "[]";
            }
            switch (type)
            {
                case "float32":
                case "float64": return "string";
                case "string": return echo ? "SoapText" : "string";
            }
            return contract.Structs.Contains(type) ? "Soap" + type : CSharp.CoreType(contract, type);
        }
    }
}
