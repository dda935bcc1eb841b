using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Numbers;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>Turns the JSON value encoding of vectors.json and workloads.json (CONTRACT.md#vectors) into typed values.</summary>
    public static class ValueDecoder
    {
        public static object Decode(string type, object json)
        {
            switch (type)
            {
                case "bool": return Bool(json);
                case "int8": return checked((sbyte)Integer(json, sbyte.MinValue, sbyte.MaxValue));
                case "int16": return checked((short)Integer(json, short.MinValue, short.MaxValue));
                case "int32": return checked((int)Integer(json, int.MinValue, int.MaxValue));
                case "int64":
                case "timestamp": return Int64(json);
                case "float32": return Float32(json);
                case "float64": return Float64(json);
                case "string": return String(json);
                case "bytes": return Bytes(json);
                case "float64[]": return Float64Array(json);
                default: throw new FormatException("no vector encoding for type " + type);
            }
        }

        public static object[] DecodeArguments(string[] types, IList<object> json)
        {
            if (json.Count != types.Length)
            {
                throw new FormatException("expected " + types.Length + " arguments, got " + json.Count);
            }
            var values = new object[types.Length];
            for (int i = 0; i < types.Length; i++)
            {
                values[i] = Decode(types[i], json[i]);
            }
            return values;
        }

        private static bool Bool(object json)
        {
            if (json is bool)
            {
                return (bool)json;
            }
            throw Unexpected("bool", json);
        }

        private static long Integer(object json, long min, long max)
        {
            var number = json as JsonNumber;
            long value;
            if (number == null || !long.TryParse(number.Text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value))
            {
                throw Unexpected("integer", json);
            }
            if (value < min || value > max)
            {
                throw new FormatException(value + " is out of range [" + min + ", " + max + "]");
            }
            return value;
        }

        private static long Int64(object json)
        {
            var text = json as string;
            long value;
            if (text == null || !long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out value))
            {
                throw Unexpected("int64 as a string of decimal digits", json);
            }
            return value;
        }

        private static float Float32(object json)
        {
            var text = json as string;
            if (text != null && text.StartsWith("0x", StringComparison.Ordinal))
            {
                if (text.Length != 10)
                {
                    throw Unexpected("float32 bits as 0x and 8 hex digits", json);
                }
                return FloatBits.Int32BitsToSingle(unchecked((int)Convert.ToUInt32(text.Substring(2), 16)));
            }
            return (float)Float64(json);
        }

        private static double Float64(object json)
        {
            var number = json as JsonNumber;
            if (number != null)
            {
                return DoubleText.Parse(number.Text);
            }
            var text = json as string;
            switch (text)
            {
                case "NaN": return double.NaN;
                case "Infinity": return double.PositiveInfinity;
                case "-Infinity": return double.NegativeInfinity;
                case "-0.0": return -0.0;
            }
            if (text != null && text.StartsWith("0x", StringComparison.Ordinal) && text.Length == 18)
            {
                return BitConverter.Int64BitsToDouble(unchecked((long)Convert.ToUInt64(text.Substring(2), 16)));
            }
            throw Unexpected("float64", json);
        }

        private static string String(object json)
        {
            var text = json as string;
            if (text != null)
            {
                return text;
            }
            var spec = json as Dictionary<string, object>;
            if (spec != null && spec.ContainsKey("repeat"))
            {
                string unit = (string)spec["repeat"];
                int length = (int)Integer(spec["length"], 0, int.MaxValue);
                if (unit.Length == 0)
                {
                    throw new FormatException("repeat of an empty string");
                }
                var sb = new StringBuilder(length + unit.Length);
                while (sb.Length < length)
                {
                    sb.Append(unit);
                }
                sb.Length = length;
                return sb.ToString();
            }
            throw Unexpected("string", json);
        }

        private static byte[] Bytes(object json)
        {
            var spec = json as Dictionary<string, object>;
            if (spec == null)
            {
                throw Unexpected("bytes", json);
            }
            if (spec.ContainsKey("base64"))
            {
                return Convert.FromBase64String((string)spec["base64"]);
            }
            if (spec.ContainsKey("allByteValues"))
            {
                var all = new byte[256];
                for (int i = 0; i < all.Length; i++)
                {
                    all[i] = (byte)i;
                }
                return all;
            }
            if (spec.ContainsKey("randomBytes"))
            {
                var random = (Dictionary<string, object>)spec["randomBytes"];
                int count = (int)Integer(random["count"], 0, int.MaxValue);
                var rng = new SplitMix64(SeedOf(random["seed"]));
                var bytes = new byte[count];
                for (int i = 0; i < count; i += 8)
                {
                    ulong word = rng.Next();
                    for (int k = 0; k < 8 && i + k < count; k++)
                    {
                        bytes[i + k] = (byte)(word >> (8 * k));
                    }
                }
                return bytes;
            }
            throw Unexpected("bytes", json);
        }

        private static double[] Float64Array(object json)
        {
            var list = json as List<object>;
            if (list != null)
            {
                var values = new double[list.Count];
                for (int i = 0; i < values.Length; i++)
                {
                    values[i] = Float64(list[i]);
                }
                return values;
            }
            var spec = json as Dictionary<string, object>;
            if (spec != null && spec.ContainsKey("randomDoubles"))
            {
                var random = (Dictionary<string, object>)spec["randomDoubles"];
                int count = (int)Integer(random["count"], 0, int.MaxValue);
                double offset = random.ContainsKey("offset") ? Float64(random["offset"]) : 0.0;
                var rng = new SplitMix64(SeedOf(random["seed"]));
                var values = new double[count];
                for (int i = 0; i < count; i++)
                {
                    values[i] = offset + rng.NextDouble();
                }
                return values;
            }
            throw Unexpected("float64[]", json);
        }

        /// <summary>Seeds are int64: a decimal string, or a plain JSON number where it is small.</summary>
        private static long SeedOf(object json)
        {
            return json is JsonNumber ? Integer(json, long.MinValue, long.MaxValue) : Int64(json);
        }

        private static FormatException Unexpected(string what, object json)
        {
            return new FormatException("expected " + what + ", got " + (json == null ? "null" : JsonWriter.Write(json)));
        }
    }
}
