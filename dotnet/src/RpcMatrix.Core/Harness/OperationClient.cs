using System;
using System.Collections.Generic;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// A client whose protocol calls every operation the same way, by its table entry and arguments: the contract's
    /// typed methods are written once here, each protocol writes only Call (and Dispose), converting with its
    /// family's mapping. Java's OperationClient.
    /// </summary>
    public abstract class OperationClient : IBenchClient
    {
        private static readonly object[] NoArguments = new object[0];

        /// <summary>
        /// Sends one call: arguments in the contract's .NET types (boxed, parameter order; never modified); returns the
        /// result in the contract's types, null for void; throws BenchError for the contract's error.
        /// </summary>
        protected abstract object Call(OperationInfo op, object[] args);

        public abstract void Dispose();

        public void Ping() { Call(Operations.Ping, NoArguments); }
        public bool EchoBool(bool value) { return (bool)Call(Operations.EchoBool, new object[] { value }); }
        public sbyte EchoInt8(sbyte value) { return (sbyte)Call(Operations.EchoInt8, new object[] { value }); }
        public short EchoInt16(short value) { return (short)Call(Operations.EchoInt16, new object[] { value }); }
        public int EchoInt32(int value) { return (int)Call(Operations.EchoInt32, new object[] { value }); }
        public long EchoInt64(long value) { return (long)Call(Operations.EchoInt64, new object[] { value }); }
        public float EchoFloat32(float value) { return (float)Call(Operations.EchoFloat32, new object[] { value }); }
        public double EchoFloat64(double value) { return (double)Call(Operations.EchoFloat64, new object[] { value }); }
        public string EchoString(string value) { return (string)Call(Operations.EchoString, new object[] { value }); }
        public byte[] EchoBytes(byte[] value) { return (byte[])Call(Operations.EchoBytes, new object[] { value }); }
        public bool IsPrime(int n) { return (bool)Call(Operations.IsPrime, new object[] { n }); }
        public double Average(double[] values) { return (double)Call(Operations.Average, new object[] { values }); }
        public double[] RandomDoubles(int count, long seed) { return (double[])Call(Operations.RandomDoubles, new object[] { count, seed }); }
        public double[] LogTransform(double[] values) { return (double[])Call(Operations.LogTransform, new object[] { values }); }
        public Record GetRecord(string key) { return (Record)Call(Operations.GetRecord, new object[] { key }); }
        public Book[] SearchBooks(string query, int count) { return (Book[])Call(Operations.SearchBooks, new object[] { query, count }); }
        public Item[] GetItems(int count) { return (Item[])Call(Operations.GetItems, new object[] { count }); }
        public void Fail(int code, string message) { Call(Operations.Fail, new object[] { code, message }); }

        /// <summary>gRPC only (contract.json "needs": server-streaming): no protocol here has a server stream.</summary>
        public virtual IEnumerable<double[]> RandomDoublesStream(int count, long seed, int chunk)
        {
            throw new NotSupportedException("randomDoublesStream is a gRPC-only operation");
        }
    }
}
