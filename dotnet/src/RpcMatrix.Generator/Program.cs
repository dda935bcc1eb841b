using System;
using System.IO;
using System.Text;

namespace RpcMatrix.Generator
{
    /// <summary>
    /// mono RpcMatrix.Generator.exe core|soap|remoting CONTRACT_JSON OUT_CS: writes one project's code that repeats the
    /// contract per operation (Generate.targets runs it before that project compiles), so that an operation is
    /// written by hand only in idl/ and in Core's IBench, Operations and ReferenceBench.
    /// </summary>
    public static class Program
    {
        public static int Main(string[] args)
        {
            if (args.Length != 3)
            {
                Console.Error.WriteLine("usage: RpcMatrix.Generator.exe core|soap|remoting CONTRACT_JSON OUT_CS");
                return 2;
            }
            var contract = new Contract(args[1]);
            string text;
            switch (args[0])
            {
                case "core": text = CoreSource.Write(contract); break;
                case "soap": text = SoapSource.Write(contract); break;
                case "remoting": text = RemotingSource.Write(contract); break;
                default:
                    Console.Error.WriteLine("RpcMatrix.Generator: no part " + args[0] + " (core, soap, remoting)");
                    return 2;
            }
            string output = Path.GetFullPath(args[2]);
            Directory.CreateDirectory(Path.GetDirectoryName(output));
            File.WriteAllText(output, text, new UTF8Encoding(false));
            return 0;
        }
    }
}
