using System;
using System.Collections.Generic;
using System.IO;
using Newtonsoft.Json;

namespace RpcMatrix.Core.Json
{
    /// <summary>
    /// Reads JSON with Newtonsoft.Json's JsonTextReader into plain values: null, bool, string, JsonNumber,
    /// List&lt;object&gt; and Dictionary&lt;string, object&gt;. Numbers keep their source text (JsonNumber) because
    /// the reader converts floats with the runtime's double.Parse, which Mono does not round correctly: callers
    /// read float64 through DoubleText and int64 without a detour through double.
    /// </summary>
    public static class JsonParser
    {
        private const int MaxDepth = 64;

        public static object Parse(string text)
        {
            var reader = new JsonTextReader(new StringReader(text))
            {
                DateParseHandling = DateParseHandling.None,
                FloatParseHandling = FloatParseHandling.Double,
                MaxDepth = MaxDepth,
            };
            var source = new NumberSource(text);
            try
            {
                if (!reader.Read())
                {
                    throw new FormatException("JSON: empty text");
                }
                object value = ReadValue(reader, source);
                if (reader.Read())
                {
                    throw new FormatException("JSON: trailing characters after the value");
                }
                return value;
            }
            catch (JsonException e)
            {
                throw new FormatException("JSON: " + e.Message, e);
            }
        }

        private static object ReadValue(JsonTextReader reader, NumberSource source)
        {
            switch (reader.TokenType)
            {
                case JsonToken.StartObject: return ReadObject(reader, source);
                case JsonToken.StartArray: return ReadArray(reader, source);
                case JsonToken.String: return (string)reader.Value;
                case JsonToken.Boolean: return (bool)reader.Value;
                case JsonToken.Null: return null;
                case JsonToken.Integer:
                case JsonToken.Float: return new JsonNumber(source.TextEndingAt(reader.LineNumber, reader.LinePosition));
                default: throw new FormatException("JSON: unexpected " + reader.TokenType + " at " + reader.Path);
            }
        }

        private static Dictionary<string, object> ReadObject(JsonTextReader reader, NumberSource source)
        {
            var members = new Dictionary<string, object>();
            while (Next(reader) != JsonToken.EndObject)
            {
                string name = (string)reader.Value;
                Next(reader);
                members[name] = ReadValue(reader, source);
            }
            return members;
        }

        private static List<object> ReadArray(JsonTextReader reader, NumberSource source)
        {
            var items = new List<object>();
            while (Next(reader) != JsonToken.EndArray)
            {
                items.Add(ReadValue(reader, source));
            }
            return items;
        }

        private static JsonToken Next(JsonTextReader reader)
        {
            if (!reader.Read())
            {
                throw new FormatException("JSON: unexpected end");
            }
            if (reader.TokenType == JsonToken.Comment)
            {
                throw new FormatException("JSON: comments are not JSON");
            }
            return reader.TokenType;
        }
    }
}
