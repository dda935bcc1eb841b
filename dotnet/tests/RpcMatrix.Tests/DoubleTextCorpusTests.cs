using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text;
using NUnit.Framework;
using RpcMatrix.Core.Numbers;
using RpcMatrix.Core.Reference;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// DoubleText against CPython, whose float repr() and '%.17g' are correctly rounded: 300,000 SplitMix64
    /// doubles (raw bit patterns and generator values) are sent to python3, which prints their texts;
    /// DoubleText must read repr() back to the same bits, Mono's G17 must show CPython's 17 digits (except at
    /// exact ties, see IsTie), and DoubleText.Format must read back exactly.
    /// </summary>
    [TestFixture]
    public class DoubleTextCorpusTests
    {
        private const int Count = 300000;

        private const string Script =
            "import sys, struct\n" +
            "out = sys.stdout\n" +
            "for line in sys.stdin:\n" +
            "    x = struct.unpack('<d', bytes.fromhex(line.strip()))[0]\n" +
            "    out.write(repr(x) + ' ' + ('%.17g' % x) + ' ' + ('%.40e' % x) + '\\n')\n";

        [Test]
        public void AgreesWithCPythonOn300000Values()
        {
            var values = new double[Count];
            var rng = new SplitMix64(20240601L);
            var input = new StringBuilder(Count * 17);
            for (int i = 0; i < Count; i++)
            {
                double d;
                do
                {
                    d = i % 2 == 0 ? BitConverter.Int64BitsToDouble((long)rng.Next()) : rng.NextDouble() * Math.Pow(10, i % 40 - 20);
                }
                while (double.IsNaN(d) || double.IsInfinity(d));
                values[i] = d;
                input.Append(BitConverter.ToString(BitConverter.GetBytes(d)).Replace("-", "")).Append('\n');
            }
            string[] lines = RunPython(input.ToString());
            Assert.AreEqual(Count, lines.Length);
            int failures = 0;
            var first = new StringBuilder();
            for (int i = 0; i < Count; i++)
            {
                string[] texts = lines[i].Split(' ');
                long bits = BitConverter.DoubleToInt64Bits(values[i]);
                string problem = null;
                if (BitConverter.DoubleToInt64Bits(DoubleText.Parse(texts[0])) != bits)
                {
                    problem = "Parse(repr " + texts[0] + ")";
                }
                else if (Normalise(values[i].ToString("G17", CultureInfo.InvariantCulture)) != Normalise(texts[1]) && !IsTie(texts[2]))
                {
                    problem = "G17 " + values[i].ToString("G17", CultureInfo.InvariantCulture) + " vs %.17g " + texts[1];
                }
                else if (BitConverter.DoubleToInt64Bits(DoubleText.Parse(DoubleText.Format(values[i]))) != bits)
                {
                    problem = "Format " + DoubleText.Format(values[i]);
                }
                if (problem != null && failures++ < 5)
                {
                    first.Append(bits.ToString("x16")).Append(": ").Append(problem).Append('\n');
                }
            }
            Assert.AreEqual(0, failures, first.ToString());
        }

        /// <summary>
        /// True when the exact value lies halfway between two 17-digit decimals ('%.40e' shows digit 18 as 5 and
        /// zeros after it). There CPython rounds half to even and Mono half away from zero; both read back exactly,
        /// which the Format check covers.
        /// </summary>
        private static bool IsTie(string exact)
        {
            string digits = exact.TrimStart('-').Substring(0, exact.TrimStart('-').IndexOf('e')).Replace(".", "");
            return digits[17] == '5' && digits.Substring(18).Trim('0').Length == 0;
        }

        /// <summary>Sign, significant digits and decimal exponent: "1.5E-05" and "1.5e-05" compare equal.</summary>
        private static string Normalise(string text)
        {
            string sign = text.StartsWith("-", StringComparison.Ordinal) ? "-" : "";
            text = text.TrimStart('-');
            int e = text.IndexOfAny(new[] { 'e', 'E' });
            int exponent = e < 0 ? 0 : int.Parse(text.Substring(e + 1), CultureInfo.InvariantCulture);
            string mantissa = e < 0 ? text : text.Substring(0, e);
            int dot = mantissa.IndexOf('.');
            int integerDigits = dot < 0 ? mantissa.Length : dot;
            string digits = mantissa.Replace(".", "");
            int leading = digits.Length - digits.TrimStart('0').Length;
            digits = digits.Trim('0');
            return sign + (digits.Length == 0 ? "0" : digits + "e" + (exponent + integerDigits - leading));
        }

        private static string[] RunPython(string input)
        {
            var start = new ProcessStartInfo("python3", "-c \"" + Script.Replace("\"", "\\\"") + "\"")
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
            };
            Process process;
            try
            {
                process = Process.Start(start);
            }
            catch (System.ComponentModel.Win32Exception)
            {
                Assert.Inconclusive("python3 is not installed");
                return null;
            }
            using (process)
            {
                // Write from another thread: python answers while reading, and both pipes have finite buffers.
                var writer = new System.Threading.Thread(() =>
                {
                    process.StandardInput.Write(input);
                    process.StandardInput.Close();
                });
                writer.Start();
                string output = process.StandardOutput.ReadToEnd();
                writer.Join();
                process.WaitForExit();
                Assert.AreEqual(0, process.ExitCode, "python3 failed");
                return output.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
            }
        }
    }
}
