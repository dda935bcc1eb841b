using System;
using System.Collections.Generic;
using System.Runtime;
using System.Threading;

namespace RpcMatrix.Core.Harness
{
    /// <summary>
    /// What the runtime chose at start that shapes the figures: the thread pool's minimum (raised by
    /// "mono --server") and the GC mode. Portable APIs only.
    /// </summary>
    public static class RuntimeFacts
    {
        public static Dictionary<string, object> Collect()
        {
            int workers, completionPorts;
            ThreadPool.GetMinThreads(out workers, out completionPorts);
            return new Dictionary<string, object>
            {
                { "threadpool_min_workers", workers },
                { "gc", GCSettings.IsServerGC ? "server" : "workstation" },
                { "processors", Environment.ProcessorCount },
            };
        }
    }
}
