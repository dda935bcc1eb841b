using System;
using System.IO;

namespace RpcMatrix.Tests
{
    /// <summary>Finds the repository's idl/ folder from the test assembly (dotnet/build/ is two levels below the root).</summary>
    public static class IdlPaths
    {
        public static string Directory
        {
            get
            {
                string fromEnvironment = Environment.GetEnvironmentVariable("RPCMATRIX_IDL");
                if (!string.IsNullOrEmpty(fromEnvironment))
                {
                    return fromEnvironment;
                }
                string here = Path.GetDirectoryName(typeof(IdlPaths).Assembly.Location);
                return Path.GetFullPath(Path.Combine(here, "..", "..", "idl"));
            }
        }
    }
}
