package org.rpcmatrix.soap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rpcmatrix.core.AttackClient;
import org.rpcmatrix.core.Book;
import org.rpcmatrix.core.ClientOptions;
import org.rpcmatrix.core.Item;
import org.rpcmatrix.core.MetadataClient;
import org.rpcmatrix.core.Operation;
import org.rpcmatrix.core.OperationClient;
import org.rpcmatrix.soap.generated.Bench;
import org.rpcmatrix.soap.generated.BenchErrorFault;

/** The contract over the generated JAX-WS proxy; for the WS-Security variants, also the attacks. */
public final class SoapBenchClient extends OperationClient implements AttackClient, MetadataClient {
    private final ClientOptions options;
    private final WsSecurity.Mode mode;
    private final KeyMaterial keys;
    private final Bench proxy;

    SoapBenchClient(ClientOptions options, WsSecurity.Mode mode, KeyMaterial keys, Bench proxy) {
        this.options = options;
        this.mode = mode;
        this.keys = keys;
        this.proxy = proxy;
    }

    public static SoapBenchClient connect(ClientOptions options) throws Exception {
        WsSecurity.Mode mode = WsSecurity.Mode.of(options.protocol());
        KeyMaterial keys = mode == WsSecurity.Mode.NONE ? null : KeyMaterial.load(options.secrets());
        Bench proxy = new ProxyBuilder(options, mode, keys).build();
        return new SoapBenchClient(options, mode, keys, proxy);
    }

    @Override
    public Map<String, String> facts() {
        return Map.of("soap", SoapPorts.of(options.protocol()).soapVersion(), "conduit", ProxyBuilder.conduit(proxy));
    }

    @Override
    protected Object call(Operation op, Object... args) throws Exception {
        try {
            return call(proxy, op, args);
        } catch (BenchErrorFault e) {
            throw SoapCarriage.fromFault(e);
        }
    }

    /** One call on {@code proxy}, in the contract's Java types. */
    static Object call(Bench proxy, Operation op, Object[] args) throws BenchErrorFault {
        switch (op) {
            case PING:
                proxy.ping();
                return null;
            case ECHO_BOOL:
                return proxy.echoBool((Boolean) args[0]);
            case ECHO_INT8:
                return proxy.echoInt8((Byte) args[0]);
            case ECHO_INT16:
                return proxy.echoInt16((Short) args[0]);
            case ECHO_INT32:
                return proxy.echoInt32((Integer) args[0]);
            case ECHO_INT64:
                return proxy.echoInt64((Long) args[0]);
            case ECHO_FLOAT32:
                return proxy.echoFloat32((Float) args[0]);
            case ECHO_FLOAT64:
                return proxy.echoFloat64((Double) args[0]);
            case ECHO_STRING:
                return proxy.echoString((String) args[0]);
            case ECHO_BYTES:
                return proxy.echoBytes((byte[]) args[0]);
            case IS_PRIME:
                return proxy.isPrime((Integer) args[0]);
            case AVERAGE:
                return proxy.average(SoapCarriage.toList((double[]) args[0]));
            case RANDOM_DOUBLES:
                return SoapCarriage.toArray(proxy.randomDoubles((Integer) args[0], (Long) args[1]));
            case LOG_TRANSFORM:
                return SoapCarriage.toArray(proxy.logTransform(SoapCarriage.toList((double[]) args[0])));
            case GET_RECORD:
                return SoapCarriage.fromWire(proxy.getRecord((String) args[0]));
            case SEARCH_BOOKS: {
                List<Book> books = new ArrayList<>();
                for (org.rpcmatrix.soap.generated.Book book : proxy.searchBooks((String) args[0], (Integer) args[1])) {
                    books.add(SoapCarriage.fromWire(book));
                }
                return books;
            }
            case GET_ITEMS: {
                List<Item> items = new ArrayList<>();
                for (org.rpcmatrix.soap.generated.Item item : proxy.getItems((Integer) args[0])) {
                    items.add(SoapCarriage.fromWire(item));
                }
                return items;
            }
            case FAIL:
                proxy.fail((Integer) args[0], (String) args[1]);
                return null;
            default:
                throw new UnsupportedOperationException(op.contractName() + " is not an operation of bench.wsdl");
        }
    }

    @Override
    public String attack(String attack, Operation op, Object[] args) throws Exception {
        if (mode == WsSecurity.Mode.NONE) {
            throw new UnsupportedOperationException("plain SOAP makes no WS-Security attacks");
        }
        return new Attacks(new ProxyBuilder(options, mode, keys), keys).make(attack, op, args);
    }

    @Override
    public void pingAfterAttack() throws Exception {
        Bench fresh = new ProxyBuilder(options, mode, keys).closeConnection().build();
        try {
            fresh.ping();
        } finally {
            ProxyBuilder.destroy(fresh);
        }
    }

    /** A client built from the server's ?wsdl (WsdlCheck), with this variant's WS-Security added. */
    @Override
    public Check publishedMetadata() {
        ProxyBuilder builder = new ProxyBuilder(options, mode, keys);
        com.fasterxml.jackson.databind.node.ObjectNode answer = WsdlCheck.check(builder.address() + "?wsdl",
                builder::secure);
        return new Check(answer.get("ok").booleanValue(), answer.get("reason").textValue());
    }

    @Override
    public void close() {
        ProxyBuilder.destroy(proxy);
    }
}
