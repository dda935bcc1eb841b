using System;
using System.Globalization;

namespace RpcMatrix.Core.Numbers
{
    /// <summary>
    /// The shortest decimal text that reads back to the same float32 (CONTRACT.md, carriage): "0.1973659", not the
    /// widened double's "0.1973658949136734", which costs 8 to 10 bytes more per value on the wire.
    /// </summary>
    public static class SingleText
    {
        private const int MaxDigits = 9; // enough for any float32 to read back exactly

        /// <summary>
        /// Tries 6 significant digits first (most random float32 need 7 to 9): from there it steps down while
        /// the text still reads back and up until it does, so a typical value costs two or three formats.
        /// </summary>
        public static string Format(float value)
        {
            if (float.IsNaN(value) || float.IsInfinity(value))
            {
                throw new ArgumentException("not a finite number: " + value.ToString(CultureInfo.InvariantCulture));
            }
            if (value == 0.0f)
            {
                return FloatBits.SingleToInt32Bits(value) < 0 ? "-0.0" : "0.0";
            }
            int digits = 6;
            string text = Digits(value, digits);
            if (ReadsBack(text, value))
            {
                while (digits > 1)
                {
                    string shorter = Digits(value, digits - 1);
                    if (!ReadsBack(shorter, value))
                    {
                        break;
                    }
                    text = shorter;
                    digits--;
                }
            }
            else
            {
                while (!ReadsBack(text, value) && digits < MaxDigits)
                {
                    digits++;
                    text = Digits(value, digits);
                }
            }
            if (text.IndexOf('.') < 0 && text.IndexOf('E') < 0)
            {
                text += ".0";
            }
            return text;
        }

        private static string Digits(float value, int digits)
        {
            // The widened double is the float32's exact value, so rounding it to N digits rounds the float32.
            return ((double)value).ToString("G" + digits, CultureInfo.InvariantCulture);
        }

        private static bool ReadsBack(string text, float value)
        {
            double back;
            return DoubleText.TryParse(text, out back) && (float)back == value;
        }
    }
}
