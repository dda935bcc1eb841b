using System;
using System.IO;
using System.IO.Compression;

namespace RpcMatrix.Core.Http
{
    /// <summary>HTTP bodies in gzip (Content-Encoding: gzip) with the framework's GZipStream, default level.</summary>
    public static class GzipBody
    {
        public static byte[] Compress(byte[] body)
        {
            var compressed = new MemoryStream();
            using (var gzip = new GZipStream(compressed, CompressionMode.Compress, true))
            {
                gzip.Write(body, 0, body.Length);
            }
            return compressed.ToArray();
        }

        /// <summary>The inflated body; BodyTooLargeException past limit bytes, however small the gzip was.</summary>
        public static byte[] Decompress(byte[] body, int limit)
        {
            using (var gzip = new GZipStream(new MemoryStream(body), CompressionMode.Decompress))
            {
                return BoundedBody.ReadAll(gzip, limit, "the inflated gzip body");
            }
        }

        /// <summary>True when a Content-Encoding header says gzip.</summary>
        public static bool IsGzip(string contentEncoding)
        {
            return contentEncoding != null && contentEncoding.Trim().Equals("gzip", StringComparison.OrdinalIgnoreCase);
        }

        /// <summary>True when an Accept-Encoding header takes gzip (named, and not with q=0).</summary>
        public static bool Accepted(string acceptEncoding)
        {
            if (acceptEncoding == null)
            {
                return false;
            }
            foreach (string part in acceptEncoding.Split(','))
            {
                string[] fields = part.Split(';');
                if (!fields[0].Trim().Equals("gzip", StringComparison.OrdinalIgnoreCase))
                {
                    continue;
                }
                for (int i = 1; i < fields.Length; i++)
                {
                    string q = fields[i].Trim().Replace(" ", "");
                    if (q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000")
                    {
                        return false;
                    }
                }
                return true;
            }
            return false;
        }
    }
}
