using System;

namespace RpcMatrix.RawTcp
{
    /// <summary>
    /// Bulk float64 arrays to and from the wire's big-endian bytes: one Buffer.BlockCopy and, on a little-endian
    /// host, one in-place swap pass over the bytes, rather than a shift loop per value.
    /// </summary>
    public static class ByteOrder
    {
        public static void CopyToBigEndian(double[] values, byte[] into, int offset)
        {
            int byteCount = values.Length * 8;
            Buffer.BlockCopy(values, 0, into, offset, byteCount);
            if (BitConverter.IsLittleEndian)
            {
                Swap8(into, offset, byteCount);
            }
        }

        /// <summary>Reads count big-endian float64 values; swaps the source bytes in place (a frame is read once).</summary>
        public static double[] FromBigEndian(byte[] from, int offset, int count)
        {
            int byteCount = count * 8;
            if (BitConverter.IsLittleEndian)
            {
                Swap8(from, offset, byteCount);
            }
            var values = new double[count];
            Buffer.BlockCopy(from, offset, values, 0, byteCount);
            return values;
        }

        private static void Swap8(byte[] bytes, int offset, int byteCount)
        {
            int end = offset + byteCount;
            for (int i = offset; i < end; i += 8)
            {
                byte b0 = bytes[i], b1 = bytes[i + 1], b2 = bytes[i + 2], b3 = bytes[i + 3];
                bytes[i] = bytes[i + 7];
                bytes[i + 1] = bytes[i + 6];
                bytes[i + 2] = bytes[i + 5];
                bytes[i + 3] = bytes[i + 4];
                bytes[i + 4] = b3;
                bytes[i + 5] = b2;
                bytes[i + 6] = b1;
                bytes[i + 7] = b0;
            }
        }
    }
}
