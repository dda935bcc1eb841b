using System.Xml;
using System.Xml.Schema;
using System.Xml.Serialization;

namespace RpcMatrix.Soap.Contract
{
    /// <summary>
    /// An xs:string that keeps CR: WCF's XML writer sends CR as a raw character, which every XML reader turns into
    /// LF (end-of-line normalisation), so this writes it as the character reference &amp;#13; instead.
    /// </summary>
    public sealed class SoapText : IXmlSerializable
    {
        public SoapText()
        {
        }

        public SoapText(string value)
        {
            Value = value;
        }

        public string Value { get; set; }

        public XmlSchema GetSchema()
        {
            return null;
        }

        public void ReadXml(XmlReader reader)
        {
            Value = reader.ReadElementContentAsString();
        }

        public void WriteXml(XmlWriter writer)
        {
            string value = Value ?? "";
            int start = 0;
            for (int cr = value.IndexOf('\r'); cr >= 0; cr = value.IndexOf('\r', start))
            {
                writer.WriteString(value.Substring(start, cr - start));
                writer.WriteCharEntity('\r');
                start = cr + 1;
            }
            writer.WriteString(value.Substring(start));
        }

        public static string Of(SoapText text)
        {
            return text == null || text.Value == null ? "" : text.Value;
        }
    }
}
