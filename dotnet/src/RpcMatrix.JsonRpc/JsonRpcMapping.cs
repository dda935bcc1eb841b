using System;
using System.Collections.Generic;
using System.Globalization;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Json;
using RpcMatrix.Core.Numbers;
using RpcMatrix.JsonRpc.Protocol;

namespace RpcMatrix.JsonRpc
{
    /// <summary>
    /// The contract's values as JSON (CONTRACT.md#carriage, jsonrpc row): integers (int64 too) as exact JSON
    /// integers, float64 as the shortest decimal that reads back exactly, float32 as the shortest decimal that reads
    /// back to the same float32 (read rounded to the nearest float32), bytes as standard base64, structs as objects named by the contract's
    /// fields. Readers check every value and throw JsonRpcError -32602 for what does not fit, never truncate.
    /// ToWire and FromWire give the converter of a contract type name (Python's jsonrpc/mapping.py to_wire and
    /// from_wire), bound to the operation table once in Table, which the server and the client share.
    /// </summary>
    public static class JsonRpcMapping
    {
        /// <summary>The converter that puts a contract value of the type on the wire, as Core's JsonWriter takes it.</summary>
        public static Func<object, object> ToWire(string type)
        {
            switch (type)
            {
                case "void": return value => null;
                case "bool":
                case "int32":
                case "int64":
                case "timestamp":
                case "float64":
                case "string":
                case "float64[]":
                case "string[]": return value => value;
                case "int8": return value => (int)(sbyte)value;
                case "int16": return value => (int)(short)value;
                case "float32": return value => Float32((float)value);
                case "bytes": return value => Bytes((byte[])value);
                case "Record": return value => Record((Record)value);
                case "Book[]": return value => Books((Book[])value);
                case "Item[]": return value => Items((Item[])value);
                default: throw new ArgumentException("JSON-RPC carries no " + type);
            }
        }

        /// <summary>The converter that reads a value of the type off the wire, checked (JsonRpcError -32602).</summary>
        public static Func<object, object> FromWire(string type)
        {
            switch (type)
            {
                case "void": return value => { ToVoid(value); return null; };
                case "bool": return value => ToBool(value);
                case "int8": return value => ToInt8(value);
                case "int16": return value => ToInt16(value);
                case "int32": return value => ToInt32(value);
                case "int64":
                case "timestamp": return value => ToInt64(value);
                case "float32": return value => ToFloat32(value);
                case "float64": return value => ToFloat64(value);
                case "string": return value => ToString(value);
                case "bytes": return value => ToBytes(value);
                case "float64[]": return value => ToFloat64Array(value);
                case "string[]": return value => ToStringArray(value);
                case "Record": return value => ToRecord(value);
                case "Book[]": return value => ToBooks(value);
                case "Item[]": return value => ToItems(value);
                default: throw new ArgumentException("JSON-RPC carries no " + type);
            }
        }

        // Writing: values Core's JsonWriter takes (bool, int, long, double, string, lists, dictionaries).

        public static object Float32(float value) { return new JsonNumber(SingleText.Format(value)); }
        public static object Bytes(byte[] value) { return Convert.ToBase64String(value); }

        public static object Record(Record r)
        {
            return new Dictionary<string, object> { { "id", r.Id }, { "tags", r.Tags }, { "values", r.Values } };
        }

        public static object Books(Book[] books)
        {
            var list = new object[books.Length];
            for (int i = 0; i < books.Length; i++)
            {
                Book b = books[i];
                list[i] = new Dictionary<string, object>
                {
                    { "title", b.Title }, { "authors", b.Authors }, { "price", b.Price }, { "listPrice", b.ListPrice },
                    { "publisher", b.Publisher }, { "year", b.Year }, { "month", b.Month }, { "keywords", b.Keywords },
                    { "isbn", b.Isbn }, { "starRating", b.StarRating }, { "url", b.Url },
                };
            }
            return list;
        }

        public static object Items(Item[] items)
        {
            var list = new object[items.Length];
            for (int i = 0; i < items.Length; i++)
            {
                Item t = items[i];
                list[i] = new Dictionary<string, object>
                {
                    { "id", t.Id }, { "title", t.Title }, { "description", t.Description }, { "category", t.Category },
                    { "owner", t.Owner }, { "created", t.Created }, { "updated", t.Updated }, { "quantity", t.Quantity },
                    { "price", t.Price }, { "weight", Float32(t.Weight) },
                };
            }
            return list;
        }

        // Reading: values from Core's JsonParser (numbers keep their text as JsonNumber).

        public static bool ToBool(object value)
        {
            if (!(value is bool))
            {
                throw Invalid("expected true or false", value);
            }
            return (bool)value;
        }

        public static sbyte ToInt8(object value) { return (sbyte)Integer(value, sbyte.MinValue, sbyte.MaxValue, "int8"); }
        public static short ToInt16(object value) { return (short)Integer(value, short.MinValue, short.MaxValue, "int16"); }
        public static int ToInt32(object value) { return (int)Integer(value, int.MinValue, int.MaxValue, "int32"); }
        public static long ToInt64(object value) { return Integer(value, long.MinValue, long.MaxValue, "int64"); }

        public static double ToFloat64(object value)
        {
            var number = value as JsonNumber;
            if (number == null)
            {
                throw Invalid("expected a number", value);
            }
            return DoubleText.Parse(number.Text);
        }

        /// <summary>
        /// The nearest float32. Through the correctly rounded float64 first: for the short decimals writers send
        /// (at most 17 significant digits) that double rounding cannot land on a float32 tie.
        /// </summary>
        public static float ToFloat32(object value)
        {
            double d = ToFloat64(value);
            float f = (float)d;
            if (float.IsInfinity(f))
            {
                throw Invalid("out of float32 range", value);
            }
            return f;
        }

        public static string ToString(object value)
        {
            var text = value as string;
            if (text == null)
            {
                throw Invalid("expected a string", value);
            }
            return text;
        }

        public static byte[] ToBytes(object value)
        {
            try
            {
                return Convert.FromBase64String(ToString(value));
            }
            catch (FormatException)
            {
                throw Invalid("expected standard base64", value);
            }
        }

        public static double[] ToFloat64Array(object value)
        {
            List<object> list = List(value);
            var values = new double[list.Count];
            for (int i = 0; i < values.Length; i++)
            {
                values[i] = ToFloat64(list[i]);
            }
            return values;
        }

        public static string[] ToStringArray(object value)
        {
            List<object> list = List(value);
            var values = new string[list.Count];
            for (int i = 0; i < values.Length; i++)
            {
                values[i] = ToString(list[i]);
            }
            return values;
        }

        public static void ToVoid(object value)
        {
            if (value != null)
            {
                throw Invalid("expected null for a void result", value);
            }
        }

        public static Record ToRecord(object value)
        {
            Dictionary<string, object> s = Struct(value, "id", "tags", "values");
            return new Record { Id = ToInt64(s["id"]), Tags = ToStringArray(s["tags"]), Values = ToFloat64Array(s["values"]) };
        }

        public static Book[] ToBooks(object value)
        {
            List<object> list = List(value);
            var books = new Book[list.Count];
            for (int i = 0; i < books.Length; i++)
            {
                Dictionary<string, object> s = Struct(list[i], "title", "authors", "price", "listPrice", "publisher", "year",
                    "month", "keywords", "isbn", "starRating", "url");
                books[i] = new Book
                {
                    Title = ToString(s["title"]), Authors = ToStringArray(s["authors"]), Price = ToFloat64(s["price"]),
                    ListPrice = ToFloat64(s["listPrice"]), Publisher = ToString(s["publisher"]), Year = ToInt32(s["year"]),
                    Month = ToInt32(s["month"]), Keywords = ToStringArray(s["keywords"]), Isbn = ToString(s["isbn"]),
                    StarRating = ToInt32(s["starRating"]), Url = ToString(s["url"]),
                };
            }
            return books;
        }

        public static Item[] ToItems(object value)
        {
            List<object> list = List(value);
            var items = new Item[list.Count];
            for (int i = 0; i < items.Length; i++)
            {
                Dictionary<string, object> s = Struct(list[i], "id", "title", "description", "category", "owner", "created",
                    "updated", "quantity", "price", "weight");
                items[i] = new Item
                {
                    Id = ToInt64(s["id"]), Title = ToString(s["title"]), Description = ToString(s["description"]),
                    Category = ToString(s["category"]), Owner = ToString(s["owner"]), Created = ToInt64(s["created"]),
                    Updated = ToInt64(s["updated"]), Quantity = ToInt32(s["quantity"]), Price = ToFloat64(s["price"]),
                    Weight = ToFloat32(s["weight"]),
                };
            }
            return items;
        }

        /// <summary>A JSON integer (no fraction or exponent) read exactly, never through a double, range-checked.</summary>
        private static long Integer(object value, long min, long max, string type)
        {
            var number = value as JsonNumber;
            long parsed;
            if (number == null || !IsIntegerText(number.Text)
                || !long.TryParse(number.Text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out parsed))
            {
                throw Invalid("expected an " + type + " as a JSON integer", value);
            }
            if (parsed < min || parsed > max)
            {
                throw Invalid(type + " out of range", value);
            }
            return parsed;
        }

        private static bool IsIntegerText(string text)
        {
            for (int i = 0; i < text.Length; i++)
            {
                char c = text[i];
                if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-'))
                {
                    return false;
                }
            }
            return text.Length > 0;
        }

        private static List<object> List(object value)
        {
            var list = value as List<object>;
            if (list == null)
            {
                throw Invalid("expected an array", value);
            }
            return list;
        }

        private static Dictionary<string, object> Struct(object value, params string[] fields)
        {
            var members = value as Dictionary<string, object>;
            if (members == null)
            {
                throw Invalid("expected an object", value);
            }
            foreach (string field in fields)
            {
                if (!members.ContainsKey(field))
                {
                    throw new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: missing field \"" + field + "\"");
                }
            }
            return members;
        }

        private static JsonRpcError Invalid(string what, object value)
        {
            string shown = value == null ? "null" : value is string ? "a string" : value.ToString();
            if (shown.Length > 60)
            {
                shown = shown.Substring(0, 60) + "...";
            }
            return new JsonRpcError(JsonRpcError.InvalidParams, "Invalid params: " + what + ", got " + shown);
        }

        /// <summary>The operation table bound to this mapping (declared last: bound after every other static field).</summary>
        public static readonly MappedOperation[] Table = MappedOperation.Bind(ToWire, FromWire);
    }
}
