using System;
using System.IO;
using System.Text;
using RpcMatrix.Core.Numbers;

namespace RpcMatrix.RawTcp
{
    /// <summary>Reads one frame body, big-endian, refusing to read past its end.</summary>
    public sealed class FrameReader
    {
        /// <summary>idl/rawtcp.md: a frame over 64 MiB is a protocol error.</summary>
        public const int MaxFrameLength = 64 * 1024 * 1024;

        private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false, true);
        private readonly byte[] buffer;
        private readonly int end;
        private int position;

        public FrameReader(byte[] buffer, int length)
        {
            this.buffer = buffer;
            end = length;
        }

        /// <summary>Reads one frame from the stream; null on a clean end of stream before a frame starts.</summary>
        public static FrameReader ReadFrom(Stream stream)
        {
            var prefix = new byte[4];
            if (!ReadFully(stream, prefix, 4, true))
            {
                return null;
            }
            uint length = (uint)(prefix[0] << 24 | prefix[1] << 16 | prefix[2] << 8 | prefix[3]);
            if (length > MaxFrameLength)
            {
                throw new RawTcpProtocolException("frame of " + length + " bytes is over 64 MiB");
            }
            var body = new byte[length];
            ReadFully(stream, body, (int)length, false);
            return new FrameReader(body, (int)length);
        }

        public bool AtEnd { get { return position == end; } }

        public void ExpectEnd()
        {
            if (position != end)
            {
                throw new RawTcpProtocolException((end - position) + " unexpected bytes after the last value");
            }
        }

        public byte U8()
        {
            Need(1);
            return buffer[position++];
        }

        public bool Bool()
        {
            byte b = U8();
            if (b > 1)
            {
                throw new RawTcpProtocolException("bool byte " + b + " is neither 0 nor 1");
            }
            return b == 1;
        }

        public sbyte Int8() { return unchecked((sbyte)U8()); }

        public short Int16()
        {
            Need(2);
            int value = buffer[position] << 8 | buffer[position + 1];
            position += 2;
            return unchecked((short)value);
        }

        public int U16() { return (ushort)Int16(); }

        public int Int32()
        {
            Need(4);
            int value = buffer[position] << 24 | buffer[position + 1] << 16 | buffer[position + 2] << 8 | buffer[position + 3];
            position += 4;
            return value;
        }

        public long Int64()
        {
            Need(8);
            long value = 0;
            for (int i = 0; i < 8; i++)
            {
                value = value << 8 | buffer[position + i];
            }
            position += 8;
            return value;
        }

        public float Float32() { return FloatBits.Int32BitsToSingle(Int32()); }
        public double Float64() { return BitConverter.Int64BitsToDouble(Int64()); }

        /// <summary>A u32 count, checked against the bytes left so a bad count cannot allocate gigabytes.</summary>
        public int Count(int minBytesEach)
        {
            uint count = unchecked((uint)Int32());
            if ((ulong)count * (ulong)minBytesEach > (ulong)(end - position))
            {
                throw new RawTcpProtocolException("count " + count + " exceeds the frame");
            }
            return (int)count;
        }

        public string String()
        {
            int n = Count(1);
            try
            {
                string value = Utf8.GetString(buffer, position, n);
                position += n;
                return value;
            }
            catch (DecoderFallbackException)
            {
                throw new RawTcpProtocolException("string is not valid UTF-8");
            }
        }

        public byte[] Bytes()
        {
            int n = Count(1);
            var value = new byte[n];
            Buffer.BlockCopy(buffer, position, value, 0, n);
            position += n;
            return value;
        }

        public double[] Float64Array()
        {
            int n = Count(8);
            double[] values = ByteOrder.FromBigEndian(buffer, position, n);
            position += 8 * n;
            return values;
        }

        public string[] StringArray()
        {
            var values = new string[Count(4)];
            for (int i = 0; i < values.Length; i++)
            {
                values[i] = String();
            }
            return values;
        }

        private void Need(int n)
        {
            if (end - position < n)
            {
                throw new RawTcpProtocolException("frame ends in the middle of a value");
            }
        }

        private static bool ReadFully(Stream stream, byte[] into, int count, bool endAllowed)
        {
            int done = 0;
            while (done < count)
            {
                int n = stream.Read(into, done, count - done);
                if (n <= 0)
                {
                    if (done == 0 && endAllowed)
                    {
                        return false;
                    }
                    throw new EndOfStreamException("connection closed in the middle of a frame");
                }
                done += n;
            }
            return true;
        }
    }
}
