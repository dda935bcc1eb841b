using System;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace RpcMatrix.Tests
{
    /// <summary>
    /// Runs a remoting call on a thread that does not inherit the test runner's logical call context: NUnit keeps
    /// MarshalByRefObjects there, which would travel with every .NET Remoting call as ObjRefs and be refused by the
    /// server's TypeFilterLevel.Low before the call is seen (the launcher's client has no such context).
    /// </summary>
    public static class CleanCallContext
    {
        public static T Run<T>(Func<T> call)
        {
            T result = default(T);
            ExceptionDispatchInfo failure = null;
            Thread thread;
            using (ExecutionContext.SuppressFlow())
            {
                thread = new Thread(() =>
                {
                    try
                    {
                        result = call();
                    }
                    catch (Exception e)
                    {
                        failure = ExceptionDispatchInfo.Capture(e);
                    }
                });
                thread.Start();
            }
            thread.Join();
            if (failure != null)
            {
                failure.Throw();
            }
            return result;
        }

        public static void Run(Action call)
        {
            Run<object>(() =>
            {
                call();
                return null;
            });
        }
    }
}
