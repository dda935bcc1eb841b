using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using RpcMatrix.Core.Contract;
using RpcMatrix.Core.Numbers;
using RpcMatrix.XmlRpc.Protocol;

namespace RpcMatrix.XmlRpc
{
    /// <summary>
    /// The contract's values as XML-RPC values (CONTRACT.md#carriage): int64 and timestamps as decimal strings,
    /// int8/int16 as range-checked int, float32 as a double that must hold a float32 exactly, void as boolean true.
    /// Decoding checks every value and throws XmlRpcFormatException for what does not fit, never truncates.
    /// ToWire and FromWire give the converter of a contract type name (Python's xmlrpc/mapping.py to_wire and
    /// from_wire), bound to the operation table once in Table, which the server and the client share.
    /// </summary>
    public static class XmlRpcMapping
    {
        private static readonly object True = true;

        /// <summary>The converter that puts a contract value of the type on the wire, as XmlRpcWriter takes it.</summary>
        public static Func<object, object> ToWire(string type)
        {
            switch (type)
            {
                case "void": return value => True;
                case "bool":
                case "int32":
                case "float64":
                case "string":
                case "bytes":
                case "string[]": return value => value;
                case "int8": return value => (int)(sbyte)value;
                case "int16": return value => (int)(short)value;
                case "int64":
                case "timestamp": return value => Int64((long)value);
                case "float32": return value => Float32((float)value);
                case "float64[]": return value => Float64Array((double[])value);
                case "Record": return value => Record((Record)value);
                case "Book[]": return value => Books((Book[])value);
                case "Item[]": return value => Items((Item[])value);
                default: throw new ArgumentException("XML-RPC carries no " + type);
            }
        }

        /// <summary>The converter that reads a value of the type off the wire, checked (XmlRpcFormatException).</summary>
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
                default: throw new ArgumentException("XML-RPC carries no " + type);
            }
        }

        public static object Int64(long value) { return value.ToString(CultureInfo.InvariantCulture); }
        public static object Float32(float value) { return (double)value; }
        public static object Float64Array(double[] values) { return Box(values); }
        public static object StringArray(string[] values) { return values; }

        public static object Record(Record r)
        {
            return new Dictionary<string, object>
            {
                { "id", Int64(r.Id) },
                { "tags", r.Tags },
                { "values", Box(r.Values) },
            };
        }

        public static object Books(Book[] books)
        {
            var list = new object[books.Length];
            for (int i = 0; i < books.Length; i++)
            {
                Book b = books[i];
                list[i] = new Dictionary<string, object>
                {
                    { "title", b.Title },
                    { "authors", b.Authors },
                    { "price", b.Price },
                    { "listPrice", b.ListPrice },
                    { "publisher", b.Publisher },
                    { "year", b.Year },
                    { "month", b.Month },
                    { "keywords", b.Keywords },
                    { "isbn", b.Isbn },
                    { "starRating", b.StarRating },
                    { "url", b.Url },
                };
            }
            return list;
        }

        public static object Items(Item[] items)
        {
            var list = new object[items.Length];
            for (int i = 0; i < items.Length; i++)
            {
                Item item = items[i];
                list[i] = new Dictionary<string, object>
                {
                    { "id", Int64(item.Id) },
                    { "title", item.Title },
                    { "description", item.Description },
                    { "category", item.Category },
                    { "owner", item.Owner },
                    { "created", Int64(item.Created) },
                    { "updated", Int64(item.Updated) },
                    { "quantity", item.Quantity },
                    { "price", item.Price },
                    { "weight", Float32(item.Weight) },
                };
            }
            return list;
        }

        public static bool ToBool(object value)
        {
            return As<bool>(value, "boolean");
        }

        public static sbyte ToInt8(object value)
        {
            return (sbyte)Ranged(value, sbyte.MinValue, sbyte.MaxValue, "int8");
        }

        public static short ToInt16(object value)
        {
            return (short)Ranged(value, short.MinValue, short.MaxValue, "int16");
        }

        public static int ToInt32(object value)
        {
            return As<int>(value, "int");
        }

        /// <summary>A string of decimal digits with an optional minus sign.</summary>
        public static long ToInt64(object value)
        {
            var text = value as string;
            long result;
            if (text == null || text.Length == 0 || text.Length > 20 || !IsDecimal(text)
                || !long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out result))
            {
                throw new XmlRpcFormatException("int64 travels as a string of decimal digits in range, got " + Describe(value));
            }
            return result;
        }

        public static float ToFloat32(object value)
        {
            double d = ToFloat64(value);
            if (!FloatBits.IsExactSingle(d))
            {
                throw new XmlRpcFormatException("double " + DoubleText.Format(d) + " is not exactly a float32");
            }
            return (float)d;
        }

        public static double ToFloat64(object value)
        {
            return As<double>(value, "double");
        }

        public static string ToString(object value)
        {
            return As<string>(value, "string");
        }

        public static byte[] ToBytes(object value)
        {
            return As<byte[]>(value, "base64");
        }

        public static double[] ToFloat64Array(object value)
        {
            IList list = List(value);
            var result = new double[list.Count];
            for (int i = 0; i < result.Length; i++)
            {
                result[i] = ToFloat64(list[i]);
            }
            return result;
        }

        public static string[] ToStringArray(object value)
        {
            IList list = List(value);
            var result = new string[list.Count];
            for (int i = 0; i < result.Length; i++)
            {
                result[i] = ToString(list[i]);
            }
            return result;
        }

        /// <summary>void: the contract sends boolean true.</summary>
        public static void ToVoid(object value)
        {
            if (!(value is bool) || !(bool)value)
            {
                throw new XmlRpcFormatException("void travels as boolean true, got " + Describe(value));
            }
        }

        public static Record ToRecord(object value)
        {
            var s = Struct(value);
            return new Record
            {
                Id = ToInt64(Member(s, "id")),
                Tags = ToStringArray(Member(s, "tags")),
                Values = ToFloat64Array(Member(s, "values")),
            };
        }

        public static Book[] ToBooks(object value)
        {
            IList list = List(value);
            var books = new Book[list.Count];
            for (int i = 0; i < books.Length; i++)
            {
                var s = Struct(list[i]);
                books[i] = new Book
                {
                    Title = ToString(Member(s, "title")),
                    Authors = ToStringArray(Member(s, "authors")),
                    Price = ToFloat64(Member(s, "price")),
                    ListPrice = ToFloat64(Member(s, "listPrice")),
                    Publisher = ToString(Member(s, "publisher")),
                    Year = ToInt32(Member(s, "year")),
                    Month = ToInt32(Member(s, "month")),
                    Keywords = ToStringArray(Member(s, "keywords")),
                    Isbn = ToString(Member(s, "isbn")),
                    StarRating = ToInt32(Member(s, "starRating")),
                    Url = ToString(Member(s, "url")),
                };
            }
            return books;
        }

        public static Item[] ToItems(object value)
        {
            IList list = List(value);
            var items = new Item[list.Count];
            for (int i = 0; i < items.Length; i++)
            {
                var s = Struct(list[i]);
                items[i] = new Item
                {
                    Id = ToInt64(Member(s, "id")),
                    Title = ToString(Member(s, "title")),
                    Description = ToString(Member(s, "description")),
                    Category = ToString(Member(s, "category")),
                    Owner = ToString(Member(s, "owner")),
                    Created = ToInt64(Member(s, "created")),
                    Updated = ToInt64(Member(s, "updated")),
                    Quantity = ToInt32(Member(s, "quantity")),
                    Price = ToFloat64(Member(s, "price")),
                    Weight = ToFloat32(Member(s, "weight")),
                };
            }
            return items;
        }

        private static object[] Box(double[] values)
        {
            var boxed = new object[values.Length];
            for (int i = 0; i < values.Length; i++)
            {
                boxed[i] = values[i];
            }
            return boxed;
        }

        private static T As<T>(object value, string type)
        {
            if (value is T)
            {
                return (T)value;
            }
            throw new XmlRpcFormatException("expected " + type + ", got " + Describe(value));
        }

        private static int Ranged(object value, int min, int max, string type)
        {
            int i = As<int>(value, "int");
            if (i < min || i > max)
            {
                throw new XmlRpcFormatException(i + " is out of range for " + type);
            }
            return i;
        }

        private static bool IsDecimal(string text)
        {
            for (int i = text[0] == '-' ? 1 : 0; i < text.Length; i++)
            {
                if (text[i] < '0' || text[i] > '9')
                {
                    return false;
                }
            }
            return text != "-";
        }

        private static IList List(object value)
        {
            var list = value as IList;
            if (list == null || value is byte[] || value is string)
            {
                throw new XmlRpcFormatException("expected array, got " + Describe(value));
            }
            return list;
        }

        private static IDictionary<string, object> Struct(object value)
        {
            return As<IDictionary<string, object>>(value, "struct");
        }

        private static object Member(IDictionary<string, object> s, string name)
        {
            object value;
            if (!s.TryGetValue(name, out value))
            {
                throw new XmlRpcFormatException("struct has no member \"" + name + "\"");
            }
            return value;
        }

        private static string Describe(object value)
        {
            if (value == null)
            {
                return "nil";
            }
            if (value is string)
            {
                string s = (string)value;
                return "string \"" + (s.Length > 30 ? s.Substring(0, 30) + "..." : s) + "\"";
            }
            return value.GetType().Name + " " + Convert.ToString(value, CultureInfo.InvariantCulture);
        }

        /// <summary>The operation table bound to this mapping (declared last: bound after every other static field).</summary>
        public static readonly MappedOperation[] Table = MappedOperation.Bind(ToWire, FromWire);
    }
}
