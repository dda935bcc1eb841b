package org.rpcmatrix.thrift;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rpcmatrix.core.Launcher;

/**
 * {@code server --wire binary|compact --host H --port P} or
 * {@code client --wire binary|compact --host H --port P --idl DIR}: the Thrift protocol is chosen by
 * {@code --wire} (thrift-binary or thrift-compact), both on the framed transport.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage();
            return;
        }
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        Wire wire;
        try {
            wire = takeWire(rest);
        } catch (IllegalArgumentException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        rest.add(0, args[0]);
        Launcher.run(rest.toArray(new String[0]), wire.protocolName(),
                options -> ThriftServer.start(options, wire), options -> ThriftClient.connect(options, wire));
    }

    /** Removes {@code --wire VALUE} from the flags (the shared parsers know only the common flags). */
    private static Wire takeWire(List<String> flags) {
        int at = flags.indexOf("--wire");
        if (at < 0 || at + 1 >= flags.size()) {
            throw new IllegalArgumentException("--wire needs a value: binary or compact");
        }
        Wire wire = Wire.parse(flags.get(at + 1));
        flags.subList(at, at + 2).clear();
        return wire;
    }

    private static void usage() {
        System.err.println("usage: server --wire binary|compact --host H --port P"
                + " | client --wire binary|compact --host H --port P --idl DIR");
        System.exit(2);
    }
}
