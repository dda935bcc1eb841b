using System;
using System.IO;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// Reads a body without trusting its declared size: the buffer grows with the bytes that arrive, and reading
    /// stops past a limit (the contract's message limit, idl/CONTRACT.md, "Limits", or a lower one), so neither a
    /// declared length nor a gzip bomb makes the server allocate what the peer never sent.
    /// </summary>
    public static class BoundedBody
    {
        /// <summary>The largest message the contract carries, 64 MiB, after any decompression.</summary>
        public const int MaxBytes = 64 * 1024 * 1024;

        /// <summary>
        /// The most reserved for a declared size before its bytes have arrived (idl/CONTRACT.md, "Limits": four times
        /// the contract's largest value, the 1 MiB echoBytes vector).
        /// </summary>
        public const int ReserveBytes = 4 * 1024 * 1024;

        private const int ChunkBytes = 64 * 1024;

        /// <summary>Every byte of the stream, or BodyTooLargeException once more than limit bytes came.</summary>
        public static byte[] ReadAll(Stream input, int limit, string what)
        {
            return ReadAll(input, limit, what, -1);
        }

        /// <summary>
        /// Every byte of the stream, or BodyTooLargeException once more than limit bytes came. With a declared
        /// length (-1: none) the buffer starts at that length, at most ReserveBytes, and grows no further than it
        /// while the peer keeps to it, so an honest body is read into one array of its exact size (no doubling
        /// buffer, no final copy).
        /// </summary>
        public static byte[] ReadAll(Stream input, int limit, string what, long declared)
        {
            bool honest = declared >= 0 && declared <= limit;
            var buffer = new byte[honest ? (int)Math.Min(declared, ReserveBytes) : Math.Min(ChunkBytes, limit)];
            int length = 0;
            while (true)
            {
                if (length == buffer.Length)
                {
                    if (length >= limit || (honest && length == declared))
                    {
                        // Full at the limit or at the declared length: is there more?
                        int next = input.ReadByte();
                        if (next < 0)
                        {
                            return buffer;
                        }
                        if (length >= limit)
                        {
                            throw new BodyTooLargeException(what + " exceeds the limit of " + limit + " bytes");
                        }
                        honest = false;
                        Array.Resize(ref buffer, (int)Math.Min((long)length * 2 + 1, limit));
                        buffer[length++] = (byte)next;
                        continue;
                    }
                    long grown = Math.Max((long)length * 2, length + ChunkBytes);
                    if (honest)
                    {
                        grown = Math.Min(grown, declared);
                    }
                    Array.Resize(ref buffer, (int)Math.Min(grown, limit));
                }
                int read = input.Read(buffer, length, buffer.Length - length);
                if (read <= 0)
                {
                    break;
                }
                length += read;
            }
            if (length != buffer.Length)
            {
                Array.Resize(ref buffer, length);
            }
            return buffer;
        }
    }
}
