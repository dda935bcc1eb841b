using System;
using System.Globalization;
using System.Runtime.InteropServices;

namespace RpcMatrix.Core.Numbers
{
    /// <summary>Bit-level views of floats, for exact comparison and readable differences.</summary>
    public static class FloatBits
    {
        /// <summary>float and int over the same four bytes: a bit cast without allocating (BitConverter.GetBytes does).</summary>
        [StructLayout(LayoutKind.Explicit)]
        private struct SingleBits
        {
            [FieldOffset(0)] public float Single;
            [FieldOffset(0)] public int Int32;
        }

        public static int SingleToInt32Bits(float value)
        {
            return new SingleBits { Single = value }.Int32;
        }

        public static float Int32BitsToSingle(int bits)
        {
            return new SingleBits { Int32 = bits }.Single;
        }

        /// <summary>True when a float64 holds exactly a float32 value (NaN and infinities included).</summary>
        public static bool IsExactSingle(double value)
        {
            if (double.IsNaN(value))
            {
                return true;
            }
            float narrowed = (float)value;
            return BitConverter.DoubleToInt64Bits(narrowed) == BitConverter.DoubleToInt64Bits(value);
        }

        public static string Describe(double value)
        {
            string text = double.IsNaN(value) || double.IsInfinity(value)
                ? value.ToString(CultureInfo.InvariantCulture)
                : DoubleText.Format(value);
            return text + " (0x" + BitConverter.DoubleToInt64Bits(value).ToString("x16") + ")";
        }

        public static string Describe(float value)
        {
            string text = float.IsNaN(value) || float.IsInfinity(value)
                ? value.ToString(CultureInfo.InvariantCulture)
                : DoubleText.Format(value);
            return text + " (0x" + SingleToInt32Bits(value).ToString("x8") + ")";
        }
    }
}
