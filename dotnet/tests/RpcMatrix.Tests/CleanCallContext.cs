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
            return Run(call, Timeout.Infinite);
        }

        /// <summary>
        /// The call's result, or TimeoutException when it has not returned within the bound (its thread, a background
        /// one, is left to end with the call).
        /// </summary>
        public static T Run<T>(Func<T> call, int milliseconds)
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
                }) { IsBackground = true };
                thread.Start();
            }
            if (!thread.Join(milliseconds))
            {
                throw new TimeoutException("no answer within " + milliseconds + " ms");
            }
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
