using System;
using System.Collections.Generic;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using System.ServiceModel;
using RpcMatrix.Core.Contract;
using RpcMatrix.Soap.Contract;

namespace RpcMatrix.Soap
{
    /// <summary>
    /// One operation of the table bound to its WCF description (the ISoapBench method whose [OperationContract] Name is
    /// the operation's, and its message contracts: both generated from idl/contract.json by RpcMatrix.Generator's
    /// SoapSource) and to SoapMapping. Reflection runs once, when the table is built: it checks that the message members
    /// are the operation's parameters in order (and "result"), and compiles the delegates that build and read the
    /// messages and call a client proxy, so a call reflects on nothing.
    /// The server answers with Answer (SoapDispatcher), the client calls with Call (SoapClient).
    /// </summary>
    public sealed class SoapOperation
    {
        /// <summary>Every operation SOAP carries, indexed by operation id; null at a stream's id (bench.wsdl has no streams).</summary>
        public static readonly SoapOperation[] Table = Bind();

        private readonly Func<object, object[]> requestMembers;
        private readonly Func<object[], object> newRequest;
        private readonly Func<object, object> responseResult;
        private readonly Func<object, object> newResponse;
        private readonly Func<ISoapBench, object, object> send;
        private readonly Func<object, object>[] argumentsToWire;
        private readonly Func<object, object>[] argumentsFromWire;
        private readonly Func<object, object> resultToWire;
        private readonly Func<object, object> resultFromWire;

        private SoapOperation(OperationInfo operation, MethodInfo method)
        {
            Operation = operation;
            Method = method;
            var contract = (OperationContractAttribute)Attribute.GetCustomAttribute(method, typeof(OperationContractAttribute));
            Action = contract.Action;
            ReplyAction = contract.ReplyAction;
            DeclaresBenchError = Attribute.GetCustomAttributes(method, typeof(FaultContractAttribute))
                .Cast<FaultContractAttribute>().Any(f => f.DetailType == typeof(BenchErrorDetail));
            RequestType = method.GetParameters()[0].ParameterType;
            ResponseType = method.ReturnType;

            FieldInfo[] parameters = Members(RequestType, operation.ParamNames);
            FieldInfo[] result = Members(ResponseType, operation.IsVoid ? new string[0] : new[] { "result" });
            requestMembers = ReadMembers(RequestType, parameters);
            newRequest = NewMessage(RequestType, parameters);
            Func<object, object[]> responseMembers = ReadMembers(ResponseType, result);
            Func<object[], object> newResponseOf = NewMessage(ResponseType, result);
            responseResult = result.Length == 0 ? (Func<object, object>)(response => null) : response => responseMembers(response)[0];
            newResponse = value => newResponseOf(result.Length == 0 ? new object[0] : new[] { value });
            send = Send(method);

            Type resultWire = result.Length == 0 ? null : result[0].FieldType;
            argumentsToWire = new Func<object, object>[parameters.Length];
            argumentsFromWire = new Func<object, object>[parameters.Length];
            for (int i = 0; i < parameters.Length; i++)
            {
                argumentsToWire[i] = SoapMapping.ToWire(operation.ParamTypes[i], parameters[i].FieldType);
                argumentsFromWire[i] = SoapMapping.FromWire(operation.ParamTypes[i], parameters[i].FieldType);
            }
            resultToWire = SoapMapping.ToWire(operation.Returns, resultWire);
            resultFromWire = SoapMapping.FromWire(operation.Returns, resultWire);
        }

        public OperationInfo Operation { get; private set; }

        /// <summary>The ISoapBench method (its request message contract is its one parameter, the response its return type).</summary>
        public MethodInfo Method { get; private set; }

        public string Action { get; private set; }
        public string ReplyAction { get; private set; }

        /// <summary>The operation declares bench.wsdl's BenchError fault ([FaultContract]): a BenchError is answered as that fault.</summary>
        public bool DeclaresBenchError { get; private set; }

        public Type RequestType { get; private set; }
        public Type ResponseType { get; private set; }

        /// <summary>Server side: the request message contract onto the Bench; the response message contract.</summary>
        public object Answer(IBench bench, object request)
        {
            object[] wire = requestMembers(request);
            var args = new object[wire.Length];
            for (int i = 0; i < args.Length; i++)
            {
                args[i] = argumentsFromWire[i](wire[i]);
            }
            return newResponse(resultToWire(Operation.Invoke(bench, args)));
        }

        /// <summary>Client side: the call on a WCF proxy, the result in the contract's types (null for void); a fault propagates.</summary>
        public object Call(ISoapBench proxy, object[] args)
        {
            var wire = new object[argumentsToWire.Length];
            for (int i = 0; i < wire.Length; i++)
            {
                wire[i] = argumentsToWire[i](args[i]);
            }
            return resultFromWire(responseResult(send(proxy, newRequest(wire))));
        }

        private static SoapOperation[] Bind()
        {
            var methods = new Dictionary<string, MethodInfo>();
            foreach (MethodInfo method in typeof(ISoapBench).GetMethods())
            {
                var contract = (OperationContractAttribute)Attribute.GetCustomAttribute(method, typeof(OperationContractAttribute));
                methods.Add(contract.Name, method);
            }
            var table = new SoapOperation[Operations.All.Length];
            foreach (OperationInfo op in Operations.All.Where(op => !op.IsStream))
            {
                MethodInfo method;
                if (!methods.TryGetValue(op.Name, out method))
                {
                    throw new InvalidOperationException("ISoapBench has no operation " + op.Name);
                }
                methods.Remove(op.Name);
                table[op.Id] = new SoapOperation(op, method);
            }
            if (methods.Count > 0)
            {
                throw new InvalidOperationException("ISoapBench operations not in the contract: " + string.Join(", ", methods.Keys));
            }
            return table;
        }

        /// <summary>A message contract's body members, which must be exactly the names given, in their Order.</summary>
        private static FieldInfo[] Members(Type message, string[] names)
        {
            FieldInfo[] fields = message.GetFields()
                .Select(f => new { Field = f, Member = (MessageBodyMemberAttribute)Attribute.GetCustomAttribute(f, typeof(MessageBodyMemberAttribute)) })
                .Where(f => f.Member != null).OrderBy(f => f.Member.Order).Select(f => f.Field).ToArray();
            string[] declared = fields.Select(f => ((MessageBodyMemberAttribute)Attribute.GetCustomAttribute(f, typeof(MessageBodyMemberAttribute))).Name).ToArray();
            if (!declared.SequenceEqual(names))
            {
                throw new InvalidOperationException(message.Name + " carries (" + string.Join(", ", declared) + "), the contract ("
                    + string.Join(", ", names) + ")");
            }
            return fields;
        }

        /// <summary>message => new object[] { (object)((T)message).F0, ... }</summary>
        private static Func<object, object[]> ReadMembers(Type message, FieldInfo[] fields)
        {
            ParameterExpression value = Expression.Parameter(typeof(object), "message");
            UnaryExpression typed = Expression.Convert(value, message);
            NewArrayExpression members = Expression.NewArrayInit(typeof(object),
                fields.Select(f => (Expression)Expression.Convert(Expression.Field(typed, f), typeof(object))));
            return Expression.Lambda<Func<object, object[]>>(members, value).Compile();
        }

        /// <summary>members => new T { F0 = (T0)members[0], ... }</summary>
        private static Func<object[], object> NewMessage(Type message, FieldInfo[] fields)
        {
            ParameterExpression members = Expression.Parameter(typeof(object[]), "members");
            MemberInitExpression init = Expression.MemberInit(Expression.New(message), fields.Select((f, i) =>
                (MemberBinding)Expression.Bind(f, Expression.Convert(Expression.ArrayIndex(members, Expression.Constant(i)), f.FieldType))));
            return Expression.Lambda<Func<object[], object>>(Expression.Convert(init, typeof(object)), members).Compile();
        }

        /// <summary>(proxy, request) => (object)proxy.Method((TRequest)request)</summary>
        private static Func<ISoapBench, object, object> Send(MethodInfo method)
        {
            ParameterExpression proxy = Expression.Parameter(typeof(ISoapBench), "proxy");
            ParameterExpression request = Expression.Parameter(typeof(object), "request");
            MethodCallExpression call = Expression.Call(proxy, method, Expression.Convert(request, method.GetParameters()[0].ParameterType));
            return Expression.Lambda<Func<ISoapBench, object, object>>(Expression.Convert(call, typeof(object)), proxy, request).Compile();
        }
    }
}
