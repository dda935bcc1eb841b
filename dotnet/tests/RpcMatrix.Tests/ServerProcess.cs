using System;
using System.Diagnostics;
using System.IO;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// A server of the launcher in a process of its own, as the runner starts it ('mono --server', port 0): its port
    /// from the ready line, its resident memory, killed on Dispose if still running.
    /// </summary>
    public sealed class ServerProcess : IDisposable
    {
        public readonly Process Process;
        public readonly int Port;

        public ServerProcess(string protocol)
        {
            string build = Path.GetDirectoryName(typeof(ServerProcess).Assembly.Location);
            var start = new ProcessStartInfo("mono", "--server \"" + Path.Combine(build, "RpcMatrix.Launcher.exe")
                + "\" server --protocol " + protocol + " --host 127.0.0.1 --port 0 --idl \"" + IdlPaths.Directory + "\"")
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            Process = Process.Start(start);
            string ready = Process.StandardOutput.ReadLine() ?? "";
            if (!ready.Contains("\"ready\":true"))
            {
                Dispose();
                throw new InvalidOperationException("the " + protocol + " server did not get ready: " + ready);
            }
            int at = ready.IndexOf("\"port\":", StringComparison.Ordinal) + 7;
            Port = int.Parse(ready.Substring(at, ready.IndexOfAny(new[] { ',', '}' }, at) - at));
        }

        /// <summary>VmRSS of the process, in KiB (/proc/PID/status).</summary>
        public long ResidentKiB()
        {
            foreach (string line in File.ReadAllLines("/proc/" + Process.Id + "/status"))
            {
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                {
                    return long.Parse(line.Substring(6).Trim().Split(' ')[0]);
                }
            }
            throw new InvalidOperationException("no VmRSS for process " + Process.Id);
        }

        public void Dispose()
        {
            if (!Process.HasExited)
            {
                Process.Kill();
                Process.WaitForExit(5000);
            }
            Process.Dispose();
        }
    }
}
