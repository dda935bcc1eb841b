package org.rpcmatrix.hessian;

import com.caucho.hessian.io.ClassFactory;
import com.caucho.hessian.io.SerializerFactory;

/**
 * The only classes a Hessian or Burlap peer may name on the wire: the contract's structs ({@link WireStructs}).
 * Caucho's SerializerFactory otherwise loads and fills any class a message names (its deny-list holds only
 * Runtime, Process, System and Thread). With Caucho's own allow-list ({@link ClassFactory}) in whitelist mode,
 * any other class name is read as a plain map ({@code ClassFactory.load}), which the carriage then refuses as
 * the wrong type: nothing outside the contract is instantiated, on the server or in the client.
 */
final class ContractClasses {
    private ContractClasses() {
    }

    static SerializerFactory restrict(SerializerFactory factory) {
        ClassFactory classes = factory.getClassFactory();
        classes.setWhitelist(true);
        // ClassFactory's patterns are regular expressions with "." quoted and "*" widened: the nested classes
        // are WireStructs$Wire..., and "$" would be an anchor, so the prefix is matched instead.
        classes.allow(WireStructs.class.getName() + "*");
        // Own entries are read first and the first match wins: this refusal comes before the library's
        // built-in allow-list of java.* (which would let java.util.concurrent.atomic.AtomicLong in).
        classes.deny("*");
        return factory;
    }
}
