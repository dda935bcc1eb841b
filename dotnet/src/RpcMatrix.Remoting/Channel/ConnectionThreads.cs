using System;
using System.Net;
using System.Net.Sockets;
using System.Reflection;
using System.Runtime.Remoting.Channels.Tcp;
using System.Threading;

namespace RpcMatrix.Remoting.Channel
{
    /// <summary>
    /// The accept loop of a TcpChannel's server, in place of Mono 6.8's: each accepted connection is served at once
    /// on a thread of its own, at most MaxConnections at a time (a connection over it is closed at once), by the
    /// channel's own connection reader (ClientConnection.ProcessMessages, the same code and sink chain as Mono's).
    ///
    /// Mono's TcpServerChannel hands each accepted socket to its RemotingThreadPool, which adds a thread only after
    /// waiting 500 ms for a free one, on the single accept thread: with N connections open and idle, the next client
    /// waited about N x 0.5 s (64 idle: 31 s, 200 idle: 99 s), and under load every connection the client pool
    /// opened beyond the pool's threads waited its turn too (calls hung at 64 in flight). The pool, the accept loop
    /// and the reader are internal and no property sets them, so this takes the channel's listener over by
    /// reflection on the private fields of Mono 6.8's TcpServerChannel (listener, server_thread, bindAddress, port,
    /// sink, threadPool) and the internal ClientConnection; StopListening still stops it (it aborts server_thread,
    /// stops listener), and Stop closes the connections it serves.
    /// </summary>
    public sealed class ConnectionThreads
    {
        /// <summary>Connections served at once at most: RemotingThreadPool's own ThreadLimit.</summary>
        public const int MaxConnections = 1000;

        private const BindingFlags Private = BindingFlags.Instance | BindingFlags.NonPublic;
        private static readonly Assembly Remoting = typeof(TcpChannel).Assembly;
        private static readonly Type ClientConnection = Remoting.GetType("System.Runtime.Remoting.Channels.Tcp.ClientConnection", true);
        private static readonly ConstructorInfo NewConnection = ClientConnection.GetConstructor(Private | BindingFlags.Public, null,
            new[] { typeof(TcpServerChannel), typeof(Socket), Remoting.GetType("System.Runtime.Remoting.Channels.Tcp.TcpServerTransportSink", true) }, null);
        private static readonly MethodInfo ProcessMessages = ClientConnection.GetMethod("ProcessMessages");

        private readonly TcpServerChannel server;
        private readonly object sink;
        private readonly TcpListener listener;
        // The sockets served, one slot each, written by the accept thread and cleared by their own thread: no lock,
        // since Mono 6.8's Environment.Exit hung (thread dump: connection threads in Monitor.Enter and Monitor.Exit)
        // when a stop had just closed many connections whose threads then met on one.
        private readonly Socket[] slots = new Socket[MaxConnections];
        private int open;
        private int nextSlot;
        private volatile bool stopped;

        private ConnectionThreads(TcpServerChannel server, TcpListener listener)
        {
            this.server = server;
            this.listener = listener;
            sink = Field(typeof(TcpServerChannel), "sink").GetValue(server);
        }

        /// <summary>Connections being served now.</summary>
        public int Open
        {
            get { return Volatile.Read(ref open); }
        }

        /// <summary>
        /// Stops the channel's own accept loop and listens again on its address and port with this one. The port is
        /// unbound for the moment between the two (a server not yet announced as ready).
        /// </summary>
        public static ConnectionThreads Take(TcpChannel channel)
        {
            var server = (TcpServerChannel)Field(typeof(TcpChannel), "_serverChannel").GetValue(channel);
            server.StopListening(null);
            var address = (IPAddress)Field(typeof(TcpServerChannel), "bindAddress").GetValue(server);
            int port = (int)Field(typeof(TcpServerChannel), "port").GetValue(server);
            var listener = new TcpListener(address, port);
            listener.Start();
            var loop = new ConnectionThreads(server, listener);
            var thread = new Thread(loop.Accept) { IsBackground = true, Name = "remoting accept " + port };
            Field(typeof(TcpServerChannel), "listener").SetValue(server, listener);
            // StopListening frees the channel's share of Mono's pool: take the share again, as StartListening does.
            FieldInfo pool = Field(typeof(TcpServerChannel), "threadPool");
            pool.SetValue(server, pool.FieldType.GetMethod("GetSharedPool", BindingFlags.Static | BindingFlags.Public).Invoke(null, null));
            Field(typeof(TcpServerChannel), "server_thread").SetValue(server, thread);
            thread.Start();
            return loop;
        }

        /// <summary>
        /// Closes every connection being served and waits, a second at most, for their threads to end; the channel's
        /// StopListening ends the accept loop first.
        /// </summary>
        public void Stop()
        {
            stopped = true;
            for (int i = 0; i < slots.Length; i++)
            {
                Socket socket = Volatile.Read(ref slots[i]);
                if (socket != null)
                {
                    Close(socket);
                }
            }
            for (int waited = 0; Volatile.Read(ref open) > 0 && waited < 1000; waited += 10)
            {
                Thread.Sleep(10);
            }
        }

        private void Accept()
        {
            try
            {
                while (true)
                {
                    Socket socket = listener.AcceptSocket();
                    int slot = stopped ? -1 : FreeSlot();
                    if (slot < 0)
                    {
                        Close(socket);
                        continue;
                    }
                    Volatile.Write(ref slots[slot], socket);
                    Interlocked.Increment(ref open);
                    var serve = (ThreadStart)Delegate.CreateDelegate(typeof(ThreadStart),
                        NewConnection.Invoke(new[] { server, socket, sink }), ProcessMessages);
                    new Thread(() => Serve(slot, serve)) { IsBackground = true }.Start();
                }
            }
            catch (Exception)
            {
                // The listener stopped (StopListening aborts this thread and stops it).
            }
        }

        /// <summary>A free slot (the accept thread's only), or -1 when MaxConnections are being served.</summary>
        private int FreeSlot()
        {
            for (int tried = 0; tried < slots.Length; tried++)
            {
                int slot = (nextSlot + tried) % slots.Length;
                if (Volatile.Read(ref slots[slot]) == null)
                {
                    nextSlot = slot + 1;
                    return slot;
                }
            }
            return -1;
        }

        private void Serve(int slot, ThreadStart serve)
        {
            try
            {
                serve();
            }
            catch (Exception)
            {
                // ProcessMessages closes its socket in a finally block; a failure is the connection's end.
            }
            finally
            {
                Volatile.Write(ref slots[slot], null);
                Interlocked.Decrement(ref open);
            }
        }

        private static void Close(Socket socket)
        {
            try
            {
                socket.Close();
            }
            catch (Exception)
            {
                // Already closed by its reader.
            }
        }

        private static FieldInfo Field(Type type, string name)
        {
            FieldInfo field = type.GetField(name, Private);
            if (field == null)
            {
                throw new MissingFieldException(type.FullName, name);
            }
            return field;
        }
    }
}
