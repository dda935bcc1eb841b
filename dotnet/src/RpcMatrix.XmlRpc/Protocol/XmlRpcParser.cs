using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Xml;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>
    /// Reads XML-RPC messages with XmlReader (no DTDs, no external entities). Every type of the specification:
    /// int / i4, boolean, string and untyped values, double (any decimal or exponent form), dateTime.iso8601,
    /// base64, struct and array; the common extensions i8 and nil are read too, never written.
    /// </summary>
    public sealed class XmlRpcParser
    {
        private const int MaxDepth = 64;

        private static readonly XmlReaderSettings Settings = new XmlReaderSettings
        {
            DtdProcessing = DtdProcessing.Prohibit,
            XmlResolver = null,
            IgnoreComments = true,
            IgnoreProcessingInstructions = true,
            IgnoreWhitespace = false,
            CheckCharacters = true,
            CloseInput = false,
        };

        private readonly XmlReader r;

        private XmlRpcParser(XmlReader reader)
        {
            r = reader;
        }

        public static XmlRpcMethodCall ParseMethodCall(byte[] xml)
        {
            return Parse(xml, p => p.MethodCall());
        }

        /// <summary>The returned value, or an XmlRpcFault thrown for a fault response.</summary>
        public static object ParseResponse(byte[] xml)
        {
            return Parse(xml, p => p.Response());
        }

        private static T Parse<T>(byte[] xml, Func<XmlRpcParser, T> read)
        {
            using (XmlReader reader = XmlReader.Create(new MemoryStream(xml, false), Settings))
            {
                var parser = new XmlRpcParser(reader);
                reader.Read();
                T result = read(parser);
                // Whatever follows the root must still be well-formed (the reader checks it).
                while (reader.Read())
                {
                    if (reader.NodeType == XmlNodeType.Element || reader.NodeType == XmlNodeType.Text)
                    {
                        throw new XmlRpcFormatException("content after the root element");
                    }
                }
                return result;
            }
        }

        private XmlRpcMethodCall MethodCall()
        {
            Start("methodCall", false);
            string name = Start("methodName", true) ? "" : TextContent().Trim();
            if (name.Length == 0)
            {
                throw new XmlRpcFormatException("empty methodName");
            }
            var parameters = new List<object>();
            if (At("params") && !Start("params", true))
            {
                while (At("param"))
                {
                    Start("param", false);
                    parameters.Add(Value(0));
                    End("param");
                }
                End("params");
            }
            End("methodCall");
            return new XmlRpcMethodCall(name, parameters.ToArray());
        }

        private object Response()
        {
            Start("methodResponse", false);
            if (At("fault"))
            {
                Start("fault", false);
                object fault = Value(0);
                End("fault");
                End("methodResponse");
                throw ToFault(fault);
            }
            Start("params", false);
            Start("param", false);
            object value = Value(0);
            End("param");
            End("params");
            End("methodResponse");
            return value;
        }

        private static XmlRpcFault ToFault(object fault)
        {
            var members = fault as Dictionary<string, object>;
            object code;
            object text;
            if (members == null || !members.TryGetValue("faultCode", out code) || !(code is int)
                || !members.TryGetValue("faultString", out text) || !(text is string))
            {
                throw new XmlRpcFormatException("a fault must be a struct of int faultCode and string faultString");
            }
            return new XmlRpcFault((int)code, (string)text);
        }

        /// <summary>At a &lt;value&gt; start tag: reads the value and its end tag.</summary>
        private object Value(int depth)
        {
            if (depth > MaxDepth)
            {
                throw new XmlRpcFormatException("values nested more than " + MaxDepth + " deep");
            }
            if (Start("value", true))
            {
                return "";
            }
            StringBuilder untyped = null;
            while (true)
            {
                switch (r.NodeType)
                {
                    case XmlNodeType.Text:
                    case XmlNodeType.CDATA:
                    case XmlNodeType.Whitespace:
                    case XmlNodeType.SignificantWhitespace:
                        (untyped ?? (untyped = new StringBuilder())).Append(r.Value);
                        r.Read();
                        break;
                    case XmlNodeType.EndElement:
                        r.Read();
                        return untyped == null ? "" : untyped.ToString();
                    case XmlNodeType.Element:
                        if (untyped != null && untyped.ToString().Trim(' ', '\t', '\n', '\r').Length > 0)
                        {
                            throw new XmlRpcFormatException("text beside a typed value");
                        }
                        object typed = Typed(depth);
                        End("value");
                        return typed;
                    default:
                        throw Unexpected("a value");
                }
            }
        }

        private object Typed(int depth)
        {
            string type = r.Name;
            bool empty = r.IsEmptyElement;
            r.Read();
            switch (type)
            {
                case "int":
                case "i4":
                    return (int)Integer(empty, type, int.MinValue, int.MaxValue);
                case "i8":
                    return Integer(empty, type, long.MinValue, long.MaxValue);
                case "boolean":
                    return Boolean(Content(empty).Trim());
                case "string":
                    return Content(empty);
                case "double":
                    return Double(Content(empty).Trim());
                case "dateTime.iso8601":
                    return XmlRpcDateTime.Parse(Content(empty));
                case "base64":
                    return Base64(Content(empty));
                case "struct":
                    return empty ? new Dictionary<string, object>() : Struct(depth);
                case "array":
                    return Array(empty, depth);
                case "nil":
                    if (!empty && TextContent().Length > 0)
                    {
                        throw new XmlRpcFormatException("nil has content");
                    }
                    return null;
                default:
                    throw new XmlRpcFormatException("unknown value type <" + type + ">");
            }
        }

        private long Integer(bool empty, string type, long min, long max)
        {
            string text = Content(empty).Trim();
            long value;
            if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value) || value < min || value > max)
            {
                throw new XmlRpcFormatException("not an " + type + ": \"" + Shorten(text) + "\"");
            }
            return value;
        }

        private static bool Boolean(string text)
        {
            switch (text)
            {
                case "1": return true;
                case "0": return false;
                default: throw new XmlRpcFormatException("a boolean is 0 or 1, got \"" + Shorten(text) + "\"");
            }
        }

        private static double Double(string text)
        {
            double value;
            if (!DoubleText.TryParse(text, out value))
            {
                throw new XmlRpcFormatException("not a double: \"" + Shorten(text) + "\"");
            }
            return value;
        }

        private static byte[] Base64(string text)
        {
            try
            {
                return Convert.FromBase64String(text);
            }
            catch (FormatException)
            {
                throw new XmlRpcFormatException("invalid base64");
            }
        }

        private Dictionary<string, object> Struct(int depth)
        {
            var members = new Dictionary<string, object>();
            while (At("member"))
            {
                Start("member", false);
                string name = null;
                object value = null;
                bool hasValue = false;
                for (int part = 0; part < 2; part++)
                {
                    if (At("name"))
                    {
                        name = Start("name", true) ? "" : TextContent();
                    }
                    else if (At("value"))
                    {
                        value = Value(depth + 1);
                        hasValue = true;
                    }
                    else
                    {
                        throw Unexpected("<name> or <value> in a member");
                    }
                }
                if (name == null || !hasValue)
                {
                    throw new XmlRpcFormatException("a member needs one name and one value");
                }
                End("member");
                members[name] = value;
            }
            End("struct");
            return members;
        }

        private List<object> Array(bool empty, int depth)
        {
            var items = new List<object>();
            if (empty)
            {
                return items;
            }
            if (!Start("data", true))
            {
                while (At("value"))
                {
                    items.Add(Value(depth + 1));
                }
                End("data");
            }
            End("array");
            return items;
        }

        /// <summary>The text of an element whose start tag was just read: empty when it was &lt;x/&gt;.</summary>
        private string Content(bool empty)
        {
            return empty ? "" : TextContent();
        }

        /// <summary>Reads character data up to and including the end tag; a child element is an error.</summary>
        private string TextContent()
        {
            string first = null;
            StringBuilder more = null;
            while (r.NodeType != XmlNodeType.EndElement)
            {
                switch (r.NodeType)
                {
                    case XmlNodeType.Text:
                    case XmlNodeType.CDATA:
                    case XmlNodeType.Whitespace:
                    case XmlNodeType.SignificantWhitespace:
                        if (first == null)
                        {
                            first = r.Value;
                        }
                        else
                        {
                            (more ?? (more = new StringBuilder(first))).Append(r.Value);
                        }
                        break;
                    default:
                        throw Unexpected("text");
                }
                r.Read();
            }
            r.Read();
            return more != null ? more.ToString() : first ?? "";
        }

        /// <summary>Reads the start tag of a required element; true when it was empty (&lt;x/&gt;).</summary>
        private bool Start(string name, bool emptyAllowed)
        {
            SkipWhitespace();
            if (r.NodeType != XmlNodeType.Element || r.Name != name)
            {
                throw Unexpected("<" + name + ">");
            }
            bool empty = r.IsEmptyElement;
            if (empty && !emptyAllowed)
            {
                throw new XmlRpcFormatException("<" + name + "/> must not be empty");
            }
            r.Read();
            return empty;
        }

        private void End(string name)
        {
            SkipWhitespace();
            if (r.NodeType != XmlNodeType.EndElement || r.Name != name)
            {
                throw Unexpected("</" + name + ">");
            }
            r.Read();
        }

        private bool At(string name)
        {
            SkipWhitespace();
            return r.NodeType == XmlNodeType.Element && r.Name == name;
        }

        private void SkipWhitespace()
        {
            while (true)
            {
                switch (r.NodeType)
                {
                    case XmlNodeType.XmlDeclaration:
                    case XmlNodeType.Whitespace:
                    case XmlNodeType.SignificantWhitespace:
                        r.Read();
                        break;
                    case XmlNodeType.DocumentType:
                        throw new XmlRpcFormatException("a DTD is not allowed");
                    case XmlNodeType.None:
                        throw new XmlRpcFormatException("unexpected end of message");
                    default:
                        return;
                }
            }
        }

        private XmlRpcFormatException Unexpected(string expected)
        {
            string found = r.NodeType == XmlNodeType.Element ? "<" + r.Name + ">"
                : r.NodeType == XmlNodeType.EndElement ? "</" + r.Name + ">"
                : r.NodeType.ToString();
            return new XmlRpcFormatException("expected " + expected + ", found " + found);
        }

        private static string Shorten(string text)
        {
            return text.Length <= 40 ? text : text.Substring(0, 40) + "...";
        }
    }
}
