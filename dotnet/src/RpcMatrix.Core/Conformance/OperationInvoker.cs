using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Conformance
{
    /// <summary>
    /// Binds an operation name and decoded arguments to a call on any IBench, once, so that timed loops
    /// pay for no lookup. The call returns the typed result, or null for void.
    /// </summary>
    public static class OperationInvoker
    {
        public static Func<IBench, object> Bind(string op, object[] a)
        {
            switch (op)
            {
                case "ping": return b => { b.Ping(); return null; };
                case "echoBool": return b => b.EchoBool((bool)a[0]);
                case "echoInt8": return b => b.EchoInt8((sbyte)a[0]);
                case "echoInt16": return b => b.EchoInt16((short)a[0]);
                case "echoInt32": return b => b.EchoInt32((int)a[0]);
                case "echoInt64": return b => b.EchoInt64((long)a[0]);
                case "echoFloat32": return b => b.EchoFloat32((float)a[0]);
                case "echoFloat64": return b => b.EchoFloat64((double)a[0]);
                case "echoString": return b => b.EchoString((string)a[0]);
                case "echoBytes": return b => b.EchoBytes((byte[])a[0]);
                case "isPrime": return b => b.IsPrime((int)a[0]);
                case "average": return b => b.Average((double[])a[0]);
                case "randomDoubles": return b => b.RandomDoubles((int)a[0], (long)a[1]);
                case "logTransform": return b => b.LogTransform((double[])a[0]);
                case "getRecord": return b => b.GetRecord((string)a[0]);
                case "searchBooks": return b => b.SearchBooks((string)a[0], (int)a[1]);
                case "getItems": return b => b.GetItems((int)a[0]);
                case "fail": return b => { b.Fail((int)a[0], (string)a[1]); return null; };
                case "randomDoublesStream": return b => Concatenate(b.RandomDoublesStream((int)a[0], (long)a[1], (int)a[2]));
                default: throw new ArgumentException("unknown operation " + op);
            }
        }

        /// <summary>A stream is checked as the concatenation of its chunks.</summary>
        private static double[] Concatenate(System.Collections.Generic.IEnumerable<double[]> chunks)
        {
            var all = new System.Collections.Generic.List<double>();
            foreach (double[] chunk in chunks)
            {
                all.AddRange(chunk);
            }
            return all.ToArray();
        }
    }
}
