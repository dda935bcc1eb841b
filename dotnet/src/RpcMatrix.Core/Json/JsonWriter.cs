using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using Newtonsoft.Json;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.Core.Json
{
    /// <summary>
    /// Writes compact JSON with Newtonsoft.Json's JsonTextWriter, in pure ASCII (non-ASCII escaped) whatever the
    /// terminal's encoding. float64 goes out through DoubleText so that it reads back to the same bits.
    /// </summary>
    public static class JsonWriter
    {
        public static string Write(object value)
        {
            var buffer = new StringWriter(CultureInfo.InvariantCulture);
            using (var writer = new JsonTextWriter(buffer) { StringEscapeHandling = StringEscapeHandling.EscapeNonAscii })
            {
                Append(writer, value);
            }
            return buffer.ToString();
        }

        private static void Append(JsonTextWriter writer, object value)
        {
            if (value == null)
            {
                writer.WriteNull();
            }
            else if (value is bool)
            {
                writer.WriteValue((bool)value);
            }
            else if (value is string)
            {
                writer.WriteValue((string)value);
            }
            else if (value is int || value is long)
            {
                writer.WriteValue(Convert.ToInt64(value, CultureInfo.InvariantCulture));
            }
            else if (value is double)
            {
                writer.WriteRawValue(DoubleText.Format((double)value));
            }
            else if (value is JsonNumber)
            {
                writer.WriteRawValue(((JsonNumber)value).Text);
            }
            else if (value is IDictionary<string, object>)
            {
                writer.WriteStartObject();
                foreach (var member in (IDictionary<string, object>)value)
                {
                    writer.WritePropertyName(member.Key);
                    Append(writer, member.Value);
                }
                writer.WriteEndObject();
            }
            else if (value is IEnumerable<long>)
            {
                // samples (measure, load): no box per value
                writer.WriteStartArray();
                foreach (long item in (IEnumerable<long>)value)
                {
                    writer.WriteValue(item);
                }
                writer.WriteEndArray();
            }
            else if (value is IEnumerable)
            {
                writer.WriteStartArray();
                foreach (object item in (IEnumerable)value)
                {
                    Append(writer, item);
                }
                writer.WriteEndArray();
            }
            else
            {
                throw new ArgumentException("cannot write " + value.GetType() + " as JSON");
            }
        }
    }
}
