using System;
using System.Globalization;

namespace RpcMatrix.XmlRpc.Protocol
{
    /// <summary>dateTime.iso8601: written as the specification's 19980717T14:08:55; read in the common variants.</summary>
    public static class XmlRpcDateTime
    {
        private static readonly string[] Formats =
        {
            "yyyyMMdd'T'HH:mm:ss",
            "yyyyMMdd'T'HHmmss",
            "yyyy-MM-dd'T'HH:mm:ss",
            "yyyyMMdd'T'HH:mm:ss.FFFFFFF",
            "yyyy-MM-dd'T'HH:mm:ss.FFFFFFF",
            "yyyyMMdd'T'HH:mm:ssK",
            "yyyyMMdd'T'HHmmssK",
            "yyyy-MM-dd'T'HH:mm:ssK",
            "yyyy-MM-dd'T'HH:mm:ss.FFFFFFFK",
        };

        public static string Format(DateTime value)
        {
            return value.ToString("yyyyMMdd'T'HH:mm:ss", CultureInfo.InvariantCulture);
        }

        public static DateTime Parse(string text)
        {
            DateTime value;
            if (!DateTime.TryParseExact(text.Trim(), Formats, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal, out value))
            {
                throw new XmlRpcFormatException("not a dateTime.iso8601: \"" + text + "\"");
            }
            return value;
        }
    }
}
