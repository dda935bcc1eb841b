using System;
using RpcMatrix.Core.Contract;

namespace RpcMatrix.RawTcp
{
    /// <summary>
    /// One operation bound to RawTcpMapping: the encoders and decoders of its parameters and result, looked up once by
    /// contract type name, so a call does no type dispatch. The server answers with Serve, the client writes
    /// WriteRequest and reads ReadResult.
    /// </summary>
    public sealed class RawTcpOperation
    {
        private static readonly object[] NoArguments = new object[0];

        /// <summary>Every operation rawtcp carries, indexed by operation id; null at a stream's id (rawtcp has no streams).</summary>
        public static readonly RawTcpOperation[] Table = Bind();

        private readonly Action<FrameWriter, object>[] writeArguments;
        private readonly Func<FrameReader, object>[] readArguments;
        private readonly Action<FrameWriter, object> writeResult;
        private readonly Func<FrameReader, object> readResult;

        private RawTcpOperation(OperationInfo operation)
        {
            Operation = operation;
            writeArguments = Array.ConvertAll(operation.ParamTypes, RawTcpMapping.Writer);
            readArguments = Array.ConvertAll(operation.ParamTypes, RawTcpMapping.Reader);
            writeResult = RawTcpMapping.Writer(operation.Returns);
            readResult = RawTcpMapping.Reader(operation.Returns);
        }

        public OperationInfo Operation { get; private set; }

        /// <summary>The operation of a request's id, or null when rawtcp has none.</summary>
        public static RawTcpOperation ById(int id)
        {
            return id >= 0 && id < Table.Length ? Table[id] : null;
        }

        /// <summary>Server side: reads the arguments (and nothing more), calls the Bench, writes the result.</summary>
        public void Serve(IBench bench, FrameReader request, FrameWriter response)
        {
            object[] args = readArguments.Length == 0 ? NoArguments : new object[readArguments.Length];
            for (int i = 0; i < args.Length; i++)
            {
                args[i] = readArguments[i](request);
            }
            request.ExpectEnd();
            writeResult(response, Operation.Invoke(bench, args));
        }

        /// <summary>Client side: the request body, operation id and arguments.</summary>
        public void WriteRequest(FrameWriter request, object[] args)
        {
            request.U16(Operation.Id);
            for (int i = 0; i < writeArguments.Length; i++)
            {
                writeArguments[i](request, args[i]);
            }
        }

        /// <summary>Client side: the result of an ok response, which must hold exactly that.</summary>
        public object ReadResult(FrameReader response)
        {
            object result = readResult(response);
            response.ExpectEnd();
            return result;
        }

        private static RawTcpOperation[] Bind()
        {
            var table = new RawTcpOperation[Operations.All.Length];
            foreach (OperationInfo op in Operations.All)
            {
                if (!op.IsStream)
                {
                    table[op.Id] = new RawTcpOperation(op);
                }
            }
            return table;
        }
    }
}
