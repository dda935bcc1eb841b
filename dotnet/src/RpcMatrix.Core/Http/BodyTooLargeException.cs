using System;

namespace RpcMatrix.Core.Http
{
    /// <summary>
    /// A request body over <see cref="HttpHost.MaxRequestBytes"/>, declared or read or inflated: HttpHost
    /// answers it with 413 and closes the connection, since the rest of the body is not read.
    /// </summary>
    public sealed class BodyTooLargeException : Exception
    {
        public BodyTooLargeException(string message) : base(message)
        {
        }
    }
}
