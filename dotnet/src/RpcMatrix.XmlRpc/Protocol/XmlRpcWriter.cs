using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Xml;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>
    /// Writes XML-RPC messages. Values: int (also short, sbyte), bool, string, double, DateTime, byte[],
    /// IDictionary&lt;string, object&gt; (struct) and IList (array). CR goes out as &amp;#13; so that the receiver's
    /// end-of-line normalisation keeps it; a character XML 1.0 forbids makes the writer throw, never emit it.
    /// </summary>
    public static class XmlRpcWriter
    {
        private const int MaxDepth = 64;

        private static readonly XmlWriterSettings Settings = new XmlWriterSettings
        {
            Encoding = new UTF8Encoding(false),
            NewLineHandling = NewLineHandling.None,
            Indent = false,
            CheckCharacters = true,
            CloseOutput = false,
        };

        public static byte[] MethodCall(string methodName, IList<object> parameters)
        {
            return Write(w =>
            {
                w.WriteStartElement("methodCall");
                w.WriteStartElement("methodName");
                Text(w, methodName);
                w.WriteEndElement();
                Params(w, parameters);
                w.WriteEndElement();
            });
        }

        public static byte[] Response(object value)
        {
            return Write(w =>
            {
                w.WriteStartElement("methodResponse");
                Params(w, new[] { value });
                w.WriteEndElement();
            });
        }

        public static byte[] Fault(int code, string faultString)
        {
            var fault = new Dictionary<string, object> { { "faultCode", code }, { "faultString", faultString } };
            return Write(w =>
            {
                w.WriteStartElement("methodResponse");
                w.WriteStartElement("fault");
                Value(w, fault, 0);
                w.WriteEndElement();
                w.WriteEndElement();
            });
        }

        private static byte[] Write(Action<XmlWriter> body)
        {
            var buffer = new MemoryStream();
            using (XmlWriter w = XmlWriter.Create(buffer, Settings))
            {
                w.WriteStartDocument();
                body(w);
                w.WriteEndDocument();
            }
            return buffer.ToArray();
        }

        private static void Params(XmlWriter w, IList<object> parameters)
        {
            w.WriteStartElement("params");
            foreach (object p in parameters)
            {
                w.WriteStartElement("param");
                Value(w, p, 0);
                w.WriteEndElement();
            }
            w.WriteEndElement();
        }

        private static void Value(XmlWriter w, object value, int depth)
        {
            if (depth > MaxDepth)
            {
                throw new ArgumentException("value nested more than " + MaxDepth + " deep");
            }
            w.WriteStartElement("value");
            if (value is int || value is short || value is sbyte)
            {
                Typed(w, "int", Convert.ToInt32(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
            }
            else if (value is bool)
            {
                Typed(w, "boolean", (bool)value ? "1" : "0");
            }
            else if (value is string)
            {
                w.WriteStartElement("string");
                Text(w, (string)value);
                w.WriteEndElement();
            }
            else if (value is double)
            {
                double d = (double)value;
                if (double.IsNaN(d) || double.IsInfinity(d))
                {
                    throw new ArgumentException("XML-RPC's double has no NaN or infinity");
                }
                Typed(w, "double", DoubleText.Format(d));
            }
            else if (value is DateTime)
            {
                Typed(w, "dateTime.iso8601", XmlRpcDateTime.Format((DateTime)value));
            }
            else if (value is byte[])
            {
                byte[] bytes = (byte[])value;
                w.WriteStartElement("base64");
                w.WriteBase64(bytes, 0, bytes.Length);
                w.WriteEndElement();
            }
            else if (value is IDictionary<string, object>)
            {
                Struct(w, (IDictionary<string, object>)value, depth);
            }
            else if (value is IList)
            {
                Array(w, (IList)value, depth);
            }
            else
            {
                throw new ArgumentException("XML-RPC has no type for " + (value == null ? "null" : value.GetType().Name));
            }
            w.WriteEndElement();
        }

        private static void Struct(XmlWriter w, IDictionary<string, object> members, int depth)
        {
            w.WriteStartElement("struct");
            foreach (var member in members)
            {
                w.WriteStartElement("member");
                w.WriteStartElement("name");
                Text(w, member.Key);
                w.WriteEndElement();
                Value(w, member.Value, depth + 1);
                w.WriteEndElement();
            }
            w.WriteEndElement();
        }

        private static void Array(XmlWriter w, IList items, int depth)
        {
            w.WriteStartElement("array");
            w.WriteStartElement("data");
            foreach (object item in items)
            {
                Value(w, item, depth + 1);
            }
            w.WriteEndElement();
            w.WriteEndElement();
        }

        private static void Typed(XmlWriter w, string type, string text)
        {
            w.WriteStartElement(type);
            w.WriteString(text);
            w.WriteEndElement();
        }

        /// <summary>Character data with each CR as a character reference (XmlWriter would write it raw).</summary>
        private static void Text(XmlWriter w, string text)
        {
            int start = 0;
            int cr;
            while ((cr = text.IndexOf('\r', start)) >= 0)
            {
                w.WriteString(text.Substring(start, cr - start));
                w.WriteRaw("&#13;");
                start = cr + 1;
            }
            w.WriteString(start == 0 ? text : text.Substring(start));
        }
    }
}
