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
        for (Map.Entry<String, Integer> e : new TreeMap<>(s.readyEndpointsByNode()).entrySet()) {
            if (!e.getKey().equals(node) && e.getValue() > 0) {
                j.add(e.getKey() + " " + e.getValue());
            }
        }
        return j.length() > " (ready elsewhere: )".length() ? j.toString() : " nor on any other node";
    }

    /** {@code app=web,tier=front} */
    static String selector(Map<String, String> selector) {
        StringJoiner j = new StringJoiner(",");
        for (Map.Entry<String, String> e : new TreeMap<>(selector).entrySet()) {
            j.add(e.getKey() + "=" + e.getValue());
        }
        return j.toString();
    }
}
