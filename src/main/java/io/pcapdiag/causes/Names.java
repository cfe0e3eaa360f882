package io.pcapdiag.causes;

import io.pcapdiag.context.Ref;
import io.pcapdiag.context.ServiceFacts;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/** Pieces of the commands and facts causes print, from the objects' real names. */
final class Names {
    private Names() {
    }

    /** {@code " -n NS"} for a namespaced object, "" otherwise (then the command needs one added). */
    static String ns(Ref ref) {
        return ref != null && ref.namespace() != null ? " -n " + ref.namespace() : " -n <namespace>";
    }

    /** {@code " (ready elsewhere: node-b 2)"}, or {@code " nor anywhere else"}. */
    static String elsewhere(ServiceFacts s, String node) {
        StringJoiner j = new StringJoiner(", ", " (ready elsewhere: ", ")");
        new TreeMap<>(s.readyEndpointsByNode()).forEach((n, c) -> {
            if (!n.equals(node) && c > 0) {
                j.add(n + " " + c);
            }
        });
        return j.length() > " (ready elsewhere: )".length() ? j.toString() : " nor on any other node";
    }

    /** {@code app=web,tier=front} */
    static String selector(Map<String, String> selector) {
        StringJoiner j = new StringJoiner(",");
        new TreeMap<>(selector).forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }
}
