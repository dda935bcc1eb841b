namespace RpcMatrix.Core.Hosting
{
    /// <summary>Where a client connects: from "client --host H --port P --idl DIR [--secrets DIR]".</summary>
    public sealed class ClientOptions
    {
        public string Host;
        public int Port;
        public string IdlDirectory;
        public string SecretsDirectory;
    }
}
