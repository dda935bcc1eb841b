using System;
using System.IO;
using System.Text;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.RawTcp
{
    /// <summary>
    /// Builds one frame in a reusable buffer, big-endian as idl/rawtcp.md says: the body after four bytes kept
    /// for its u32 length prefix, so that the frame leaves in one write. Written apart, a body larger than the
    /// stream's buffer made BufferedStream send the prefix alone first: a 4-byte segment of its own (TCP_NODELAY)
    /// and a second system call per large frame.
    /// </summary>
    public sealed class FrameWriter
    {
        private const int PrefixLength = 4;
        private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false, true);
        private byte[] buffer = new byte[4096];
        private int length = PrefixLength;

        /// <summary>The body's length, without the prefix.</summary>
        public int Length { get { return length - PrefixLength; } }

        public void Reset()
        {
            length = PrefixLength;
        }

        /// <summary>Writes the u32 length prefix and the body in one write; the caller flushes.</summary>
        public void WriteFrameTo(Stream stream)
        {
            int body = Length;
            buffer[0] = (byte)(body >> 24);
            buffer[1] = (byte)(body >> 16);
            buffer[2] = (byte)(body >> 8);
            buffer[3] = (byte)body;
            stream.Write(buffer, 0, length);
        }

        public void U8(byte value)
        {
            Ensure(1);
            buffer[length++] = value;
        }

        public void Bool(bool value) { U8(value ? (byte)1 : (byte)0); }
        public void Int8(sbyte value) { U8(unchecked((byte)value)); }

        public void Int16(short value)
        {
            Ensure(2);
            buffer[length++] = (byte)(value >> 8);
            buffer[length++] = (byte)value;
        }

        public void U16(int value) { Int16(unchecked((short)value)); }

        public void Int32(int value)
        {
            Ensure(4);
            buffer[length++] = (byte)(value >> 24);
            buffer[length++] = (byte)(value >> 16);
            buffer[length++] = (byte)(value >> 8);
            buffer[length++] = (byte)value;
        }

        public void Int64(long value)
        {
            Ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                buffer[length++] = (byte)(value >> shift);
            }
        }

        public void Float32(float value) { Int32(FloatBits.SingleToInt32Bits(value)); }
        public void Float64(double value) { Int64(BitConverter.DoubleToInt64Bits(value)); }

        public void Count(int count) { Int32(count); }

        public void String(string value)
        {
            int byteCount = Utf8.GetByteCount(value);
            Count(byteCount);
            Ensure(byteCount);
            length += Utf8.GetBytes(value, 0, value.Length, buffer, length);
        }

        public void Bytes(byte[] value)
        {
            Count(value.Length);
            Ensure(value.Length);
            Buffer.BlockCopy(value, 0, buffer, length, value.Length);
            length += value.Length;
        }

        public void Float64Array(double[] values)
        {
            Count(values.Length);
            Ensure(8 * values.Length);
            ByteOrder.CopyToBigEndian(values, buffer, length);
            length += 8 * values.Length;
        }

        public void StringArray(string[] values)
        {
            Count(values.Length);
            foreach (string v in values)
            {
                String(v);
            }
        }

        private void Ensure(int more)
        {
            if (length + more > buffer.Length)
            {
                Array.Resize(ref buffer, Math.Max(buffer.Length * 2, length + more));
            }
        }
    }
}
