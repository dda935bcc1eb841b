using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace RpcMatrix.Core.Json
{
    /// <summary>Writes compact JSON in pure ASCII (non-ASCII escaped), whatever the terminal's encoding.</summary>
    public static class JsonWriter
    {
        public static string Write(object value)
        {
            var sb = new StringBuilder();
            Append(sb, value);
            return sb.ToString();
        }

        private static void Append(StringBuilder sb, object value)
        {
            if (value == null)
            {
                sb.Append("null");
            }
            else if (value is bool)
            {
                sb.Append((bool)value ? "true" : "false");
            }
            else if (value is string)
            {
                AppendString(sb, (string)value);
            }
            else if (value is int || value is long)
            {
                sb.Append(((System.IFormattable)value).ToString(null, CultureInfo.InvariantCulture));
            }
            else if (value is JsonNumber)
            {
                sb.Append(((JsonNumber)value).Text);
            }
            else if (value is IDictionary<string, object>)
            {
                AppendObject(sb, (IDictionary<string, object>)value);
            }
            else if (value is IEnumerable)
            {
                AppendArray(sb, (IEnumerable)value);
            }
            else
            {
                throw new System.ArgumentException("cannot write " + value.GetType() + " as JSON");
            }
        }

        private static void AppendObject(StringBuilder sb, IDictionary<string, object> members)
        {
            sb.Append('{');
            bool first = true;
            foreach (var member in members)
            {
                if (!first)
                {
                    sb.Append(", ");
                }
                first = false;
                AppendString(sb, member.Key);
                sb.Append(": ");
                Append(sb, member.Value);
            }
            sb.Append('}');
        }

        private static void AppendArray(StringBuilder sb, IEnumerable items)
        {
            sb.Append('[');
            bool first = true;
            foreach (object item in items)
            {
                if (!first)
                {
                    sb.Append(", ");
                }
                first = false;
                Append(sb, item);
            }
            sb.Append(']');
        }

        private static void AppendString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        if (c < 0x20 || c > 0x7E)
                        {
                            sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        }
                        else
                        {
                            sb.Append(c);
                        }
                        break;
                }
            }
            sb.Append('"');
        }
    }
}
