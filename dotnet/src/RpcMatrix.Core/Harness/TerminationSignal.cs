using Mono.Unix;
using Mono.Unix.Native;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// Waits for SIGTERM or SIGINT. The one Mono-specific spot (Mono.Posix); on the .NET SDK this would be
    /// System.Runtime.InteropServices.PosixSignalRegistration.
    /// </summary>
    public static class TerminationSignal
    {
        public static void Wait()
        {
            var signals = new[]
            {
                new UnixSignal(Signum.SIGTERM),
                new UnixSignal(Signum.SIGINT),
            };
            UnixSignal.WaitAny(signals);
        }
    }
}
