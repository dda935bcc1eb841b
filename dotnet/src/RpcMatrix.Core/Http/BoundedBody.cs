using System.IO;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// Reads a body without trusting its declared size: the buffer grows with the bytes that arrive, and reading
    /// stops past the contract's message limit (idl/CONTRACT.md, "Limits"), so neither a declared length nor a
    /// gzip bomb makes the server allocate what the peer never sent.
    /// </summary>
    public static class BoundedBody
    {
        /// <summary>The largest message the contract carries, 64 MiB, after any decompression.</summary>
        public const int MaxBytes = 64 * 1024 * 1024;

        private const int ChunkBytes = 64 * 1024;

        /// <summary>Every byte of the stream, or BodyTooLargeException once more than limit bytes came.</summary>
        public static byte[] ReadAll(Stream input, int limit, string what)
        {
            var buffer = new MemoryStream();
            var chunk = new byte[ChunkBytes];
            int read;
            while ((read = input.Read(chunk, 0, chunk.Length)) > 0)
            {
                if (buffer.Length + read > limit)
                {
                    throw new BodyTooLargeException(what + " exceeds the limit of " + limit + " bytes");
                }
                buffer.Write(chunk, 0, read);
            }
            return buffer.ToArray();
        }
    }
}
