using System;
using System.Globalization;
using System.Numerics;

namespace RpcMatrix.Core.Numbers
{
    /// <summary>
    /// Decimal text to and from float64, exactly. Mono 6.8's double.Parse is not correctly rounded (about one
    /// shortest representation in 700 comes back 1 ulp off, and "-0.0" loses its sign) and its "R" format does not
    /// always round-trip, so every protocol and the JSON loader go through here instead.
    /// </summary>
    public static class DoubleText
    {
        private const int MaxFastDigits = 15;
        private static readonly double[] ExactPowersOfTen = BuildExactPowers();
        private static readonly BigInteger[] BigPowersOfTen = new BigInteger[400];

        /// <summary>
        /// Text that reads back to the same bits: Mono's G17 digits (they agree with CPython's correctly rounded
        /// '%.17g' but for exact ties, which Mono rounds away from zero: DoubleTextCorpusTests checks 300,000 values), or
        /// G15 when G17 shows a binary artefact ("0.10000000000000001") and G15 reads back exactly. "-0.0" for
        /// negative zero. Trying G15 only then keeps one formatting call per typical value.
        /// </summary>
        public static string Format(double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value))
            {
                throw new ArgumentException("not a finite number: " + value.ToString(CultureInfo.InvariantCulture));
            }
            if (value == 0.0)
            {
                return BitConverter.DoubleToInt64Bits(value) < 0 ? "-0.0" : "0.0";
            }
            string text = value.ToString("G17", CultureInfo.InvariantCulture);
            if (text.Contains("00000") || text.Contains("99999"))
            {
                string shorter = value.ToString("G15", CultureInfo.InvariantCulture);
                double back;
                if (TryParse(shorter, out back) && BitConverter.DoubleToInt64Bits(back) == BitConverter.DoubleToInt64Bits(value))
                {
                    text = shorter;
                }
            }
            if (text.IndexOf('.') < 0 && text.IndexOf('E') < 0)
            {
                text += ".0";
            }
            return text;
        }

        public static double Parse(string text)
        {
            double value;
            if (!TryParse(text, out value))
            {
                throw new FormatException("not a decimal number: \"" + Shorten(text) + "\"");
            }
            return value;
        }

        /// <summary>
        /// Reads [+-]digits[.digits][(e|E)[+-]digits] (digits on at least one side of the point), correctly
        /// rounded to nearest even, subnormals included. No whitespace, no NaN or infinity names.
        /// </summary>
        public static bool TryParse(string text, out double value)
        {
            value = 0.0;
            if (string.IsNullOrEmpty(text))
            {
                return false;
            }
            int i = 0;
            bool negative = false;
            if (text[0] == '-' || text[0] == '+')
            {
                negative = text[0] == '-';
                i++;
            }
            ulong small = 0;
            BigInteger big = BigInteger.Zero;
            int significant = 0;
            int digitsSeen = 0;
            long exponent = 0;
            bool afterPoint = false;
            for (; i < text.Length; i++)
            {
                char c = text[i];
                if (c == '.')
                {
                    if (afterPoint)
                    {
                        return false;
                    }
                    afterPoint = true;
                    continue;
                }
                if (c < '0' || c > '9')
                {
                    break;
                }
                digitsSeen++;
                int digit = c - '0';
                if (afterPoint)
                {
                    exponent--;
                }
                if (significant == 0 && digit == 0)
                {
                    continue;
                }
                if (significant < 19)
                {
                    small = small * 10 + (ulong)digit;
                }
                else
                {
                    if (significant == 19)
                    {
                        big = small;
                    }
                    big = big * 10 + digit;
                }
                significant++;
            }
            if (digitsSeen == 0)
            {
                return false;
            }
            if (i < text.Length)
            {
                long explicitExponent;
                if ((text[i] != 'e' && text[i] != 'E') || !TryParseExponent(text, i + 1, out explicitExponent))
                {
                    return false;
                }
                exponent += explicitExponent;
            }
            double magnitude = significant == 0 ? 0.0
                : significant <= 19 ? FromDecimal(small, significant, exponent)
                : FromBigDecimal(big, significant, exponent);
            value = negative ? -magnitude : magnitude;
            return true;
        }

        private static bool TryParseExponent(string text, int start, out long exponent)
        {
            exponent = 0;
            int i = start;
            bool negative = false;
            if (i < text.Length && (text[i] == '-' || text[i] == '+'))
            {
                negative = text[i] == '-';
                i++;
            }
            if (i == text.Length)
            {
                return false;
            }
            for (; i < text.Length; i++)
            {
                char c = text[i];
                if (c < '0' || c > '9')
                {
                    return false;
                }
                // Saturate: anything past this is zero or infinity anyway.
                if (exponent < 100000000)
                {
                    exponent = exponent * 10 + (c - '0');
                }
            }
            if (negative)
            {
                exponent = -exponent;
            }
            return true;
        }

        private static double FromDecimal(ulong mantissa, int significant, long exponent)
        {
            // Clinger's fast path: both operands exact, so one IEEE operation rounds correctly.
            if (significant <= MaxFastDigits && exponent >= -22 && exponent <= 22)
            {
                double m = mantissa;
                return exponent < 0 ? m / ExactPowersOfTen[-exponent] : m * ExactPowersOfTen[exponent];
            }
            return FromBigDecimal(mantissa, significant, exponent);
        }

        private static double FromBigDecimal(BigInteger mantissa, int significant, long exponent)
        {
            long decimalMagnitude = significant + exponent;
            if (decimalMagnitude > 310)
            {
                return double.PositiveInfinity;
            }
            if (decimalMagnitude < -330)
            {
                return 0.0;
            }
            return exponent >= 0
                ? Ratio(mantissa * PowerOfTen((int)exponent), BigInteger.One)
                : Ratio(mantissa, PowerOfTen((int)-exponent));
        }

        /// <summary>num / den rounded to the nearest float64, ties to even.</summary>
        private static double Ratio(BigInteger num, BigInteger den)
        {
            long e = BitLength(num) - BitLength(den);
            if (e >= 0 ? num < (den << (int)e) : (num << (int)-e) < den)
            {
                e--;
            }
            // Now 2^e <= num/den < 2^(e+1).
            if (e > 1023)
            {
                return double.PositiveInfinity;
            }
            bool subnormal = e < -1022;
            int shift = subnormal ? 1074 : (int)(52 - e);
            BigInteger scaledNum = num;
            BigInteger scaledDen = den;
            if (shift >= 0)
            {
                scaledNum <<= shift;
            }
            else
            {
                scaledDen <<= -shift;
            }
            BigInteger remainder;
            BigInteger quotient = BigInteger.DivRem(scaledNum, scaledDen, out remainder);
            int half = (remainder << 1).CompareTo(scaledDen);
            if (half > 0 || (half == 0 && !quotient.IsEven))
            {
                quotient += 1;
            }
            ulong q = (ulong)quotient;
            if (subnormal)
            {
                // q <= 2^52; q == 2^52 is exactly the smallest normal's bit pattern.
                return BitConverter.Int64BitsToDouble((long)q);
            }
            if (q == 1UL << 53)
            {
                q >>= 1;
                e++;
            }
            if (e > 1023)
            {
                return double.PositiveInfinity;
            }
            ulong bits = ((ulong)(e + 1023) << 52) | (q & 0xFFFFFFFFFFFFFUL);
            return BitConverter.Int64BitsToDouble((long)bits);
        }

        private static BigInteger PowerOfTen(int n)
        {
            BigInteger p = BigPowersOfTen[n];
            if (p.IsZero)
            {
                p = BigInteger.Pow(10, n);
                BigPowersOfTen[n] = p;
            }
            return p;
        }

        private static long BitLength(BigInteger x)
        {
            byte[] bytes = x.ToByteArray();
            int n = bytes.Length;
            while (n > 0 && bytes[n - 1] == 0)
            {
                n--;
            }
            if (n == 0)
            {
                return 0;
            }
            int top = bytes[n - 1];
            long length = (n - 1) * 8L;
            while (top != 0)
            {
                length++;
                top >>= 1;
            }
            return length;
        }

        private static double[] BuildExactPowers()
        {
            var powers = new double[23];
            powers[0] = 1.0;
            for (int i = 1; i < powers.Length; i++)
            {
                powers[i] = powers[i - 1] * 10.0; // exact up to 1e22
            }
            return powers;
        }

        private static string Shorten(string text)
        {
            return text == null ? "null" : text.Length <= 40 ? text : text.Substring(0, 40) + "...";
        }
    }
}
