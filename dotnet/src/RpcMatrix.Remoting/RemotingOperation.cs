using System;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using RpcMatrix.Core.Contract;
using RpcMatrix.Remoting.Service;

namespace RpcMatrix.Remoting
{
    /// <summary>
    /// One operation of the table bound to BenchService's method of the same name (PascalCase, as IBench's) and to
    /// RemotingMapping, for the client: the method is found and checked against the contract's types once, and the
    /// call on the transparent proxy compiled into a delegate, so a call reflects on nothing. The proxy turns it
    /// into the same method-call message as a typed call.
    /// </summary>
    public sealed class RemotingOperation
    {
        /// <summary>Every operation .NET Remoting carries, indexed by operation id; null at a stream's id.</summary>
        public static readonly RemotingOperation[] Table = Bind();

        private readonly Func<BenchService, object[], object> call;
        private readonly Func<object, object>[] argumentsToWire;
        private readonly Func<object, object> resultFromWire;

        private RemotingOperation(OperationInfo operation)
        {
            Operation = operation;
            string name = char.ToUpperInvariant(operation.Name[0]) + operation.Name.Substring(1);
            Type[] parameters = operation.ParamTypes.Select(RemotingMapping.WireType).ToArray();
            MethodInfo method = typeof(BenchService).GetMethod(name, parameters);
            if (method == null || method.ReturnType != RemotingMapping.WireType(operation.Returns))
            {
                throw new InvalidOperationException("BenchService has no " + RemotingMapping.WireType(operation.Returns).Name + " "
                    + name + "(" + string.Join(", ", parameters.Select(t => t.Name)) + ")");
            }
            call = Compile(method);
            argumentsToWire = Array.ConvertAll(operation.ParamTypes, RemotingMapping.ToWire);
            resultFromWire = RemotingMapping.FromWire(operation.Returns);
        }

        public OperationInfo Operation { get; private set; }

        /// <summary>The call on a BenchService proxy; the result in the contract's types (null for void); a remote exception propagates.</summary>
        public object Call(BenchService proxy, object[] args)
        {
            var wire = new object[argumentsToWire.Length];
            for (int i = 0; i < wire.Length; i++)
            {
                wire[i] = argumentsToWire[i](args[i]);
            }
            return resultFromWire(call(proxy, wire));
        }

        private static RemotingOperation[] Bind()
        {
            var table = new RemotingOperation[Operations.All.Length];
            foreach (OperationInfo op in Operations.All.Where(op => !op.IsStream))
            {
                table[op.Id] = new RemotingOperation(op);
            }
            return table;
        }

        /// <summary>(service, a) => (object)service.Method((T0)a[0], ...), or null for a void method.</summary>
        private static Func<BenchService, object[], object> Compile(MethodInfo method)
        {
            ParameterExpression service = Expression.Parameter(typeof(BenchService), "service");
            ParameterExpression args = Expression.Parameter(typeof(object[]), "args");
            Expression[] typed = method.GetParameters().Select((p, i) =>
                (Expression)Expression.Convert(Expression.ArrayIndex(args, Expression.Constant(i)), p.ParameterType)).ToArray();
            MethodCallExpression invoke = Expression.Call(service, method, typed);
            Expression body = method.ReturnType == typeof(void)
                ? (Expression)Expression.Block(invoke, Expression.Constant(null, typeof(object)))
                : Expression.Convert(invoke, typeof(object));
            return Expression.Lambda<Func<BenchService, object[], object>>(body, service, args).Compile();
        }
    }
}
