package org.rpcmatrix.soap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import javax.wsdl.Definition;
import javax.wsdl.Port;
import javax.wsdl.Service;
import javax.xml.namespace.QName;
import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.wsdl.WSDLManager;
import org.rpcmatrix.core.contract.Json;
import org.rpcmatrix.core.contract.Operation;
import org.rpcmatrix.soap.generated.Bench;

/**
 * {@code client --check-wsdl URL}: can a client be built from what a server publishes? Reads the WSDL, finds
 * a port whose port type has every operation of the contract's WSDL, builds the generated proxy on it (CXF
 * matches the service interface against the WSDL) and calls ping() at the WSDL's address. Prints one JSON
 * line {"ok": ..., "reason": ...}.
 */
final class WsdlCheck {
    private WsdlCheck() {
    }

    static ObjectNode check(String url) {
        return check(url, factory -> { });
    }

    /** As {@link #check(String)}, with {@code security} adding what the WSDL cannot say (WS-Security keys). */
    static ObjectNode check(String url, Consumer<JaxWsProxyFactoryBean> security) {
        ObjectNode answer = Json.MAPPER.createObjectNode();
        Bus bus = BusFactory.newInstance().createBus();
        try {
            Definition definition = bus.getExtension(WSDLManager.class).getDefinition(url);
            Set<String> wanted = contractOperations();
            String failure = "the WSDL has no port";
            for (Object s : definition.getAllServices().values()) {
                Service service = (Service) s; // WSDL4J's maps are raw
                for (Object p : service.getPorts().values()) {
                    Port port = (Port) p;
                    Set<String> absent = new TreeSet<>(wanted);
                    for (Object op : port.getBinding().getPortType().getOperations()) {
                        absent.remove(((javax.wsdl.Operation) op).getName());
                    }
                    if (!absent.isEmpty()) {
                        failure = "port " + port.getName() + " lacks " + absent;
                        continue;
                    }
                    // A WSDL may list ports its server does not serve (the contract's WSDL has both SOAP
                    // versions): any port that answers will do.
                    try {
                        ping(bus, url, service.getQName(), new QName(definition.getTargetNamespace(), port.getName()),
                                security);
                        return answer.put("ok", true).put("reason", "built a client for "
                                + service.getQName().getLocalPart() + "/" + port.getName()
                                + " from the published WSDL; ping() answered");
                    } catch (Exception | LinkageError e) {
                        failure = "port " + port.getName() + ": " + describe(e);
                    }
                }
            }
            return answer.put("ok", false).put("reason", failure);
        } catch (Exception | LinkageError e) {
            return answer.put("ok", false).put("reason", describe(e));
        } finally {
            bus.shutdown(false);
        }
    }

    private static void ping(Bus bus, String url, QName service, QName port,
            Consumer<JaxWsProxyFactoryBean> security) {
        JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
        factory.setBus(bus);
        factory.setServiceClass(Bench.class);
        factory.setWsdlURL(url);
        factory.setServiceName(service);
        factory.setEndpointName(port);
        security.accept(factory);
        Bench proxy = (Bench) factory.create();
        ProxyBuilder.configureConduit(proxy, true);
        try {
            proxy.ping();
        } finally {
            ProxyBuilder.destroy(proxy);
        }
    }

    private static String describe(Throwable e) {
        String message = e.getMessage() == null ? "" : ": " + e.getMessage().replaceAll("\\s+", " ");
        return e.getClass().getSimpleName() + message;
    }

    /** The operations bench.wsdl declares: the contract's, without the streaming one SOAP lacks. */
    static Set<String> contractOperations() {
        Set<String> names = new TreeSet<>();
        for (Operation op : Operation.values()) {
            if (op != Operation.RANDOM_DOUBLES_STREAM) {
                names.add(op.contractName());
            }
        }
        return names;
    }
}
