package io.pcapdiag.causes;

import static java.util.stream.Collectors.joining;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.track.Sighting;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Pieces of the commands and facts causes print, from the objects' real names. */
final class Names {
    private Names() {
    }

    /** {@code " -n NS"} for a namespaced object, "" otherwise (then the command needs one added). */
    static String ns(Ref ref) {
        return ref != null && ref.namespace() != null ? " -n " + ref.namespace() : " -n <namespace>";
    }

    /** {@code " (ready elsewhere: node-b 2)"}, or {@code " nor on any other node"}. */
    static String elsewhere(ServiceFacts s, String node) {
        String ready = new TreeMap<>(s.readyEndpointsByNode()).entrySet().stream()
                .filter(e -> !e.getKey().equals(node) && e.getValue() > 0)
                .map(e -> e.getKey() + " " + e.getValue()).collect(joining(", "));
        return ready.isEmpty() ? " nor on any other node" : " (ready elsewhere: " + ready + ")";
    }

    /**
     * When the cluster knows the dialed address:port as a pod's and no Service's, the fact saying so: the connection went
     * to the pod directly, so no Service's endpoints or traffic policy took part (kube-proxy only rewrites Service
     * addresses).
     */
    static Optional<Fact> podNotService(Endpoint target, Context context) {
        return context.ref(target).filter(r -> Ref.POD.equals(r.kind())).map(r -> new Fact(Source.CLUSTER, target.address()
                + " is a pod's address (" + r.text() + "), no Service's: the SYN went to the pod directly, without kube-proxy"));
    }

    /**
     * The interface the capture saw {@code s} on, as reports name it (diagnosis' PathHop): the capture's name for it,
     * the node facts' name for a Linux cooked capture's index ({@code ifindex N} when they do not know it), the label's,
     * or null when the capture does not say.
     */
    static String iface(Sighting s, Context context) {
        if (s.interfaceName != null) {
            return s.interfaceName;
        }
        if (s.ifIndex >= 0) {
            return context.forNode(s.capture.node()).interfaceName(s.ifIndex).orElse("ifindex " + s.ifIndex);
        }
        return s.capture.labelledInterface();
    }

    /** Whether two packets were captured at the same place: the same capture and interface (name and index). */
    static boolean samePlace(Sighting a, Sighting b) {
        return a.capture == b.capture && a.ifIndex == b.ifIndex && java.util.Objects.equals(a.interfaceName, b.interfaceName);
    }

    /** The node a packet was captured on: its capture's label, else the capture's node the context names; or null. */
    static String node(Sighting s, Context context) {
        return s.capture.node() != null ? s.capture.node() : context.captureNode().map(Reading::value).orElse(null);
    }

    /** {@code app=web,tier=front} */
    static String selector(Map<String, String> selector) {
        return new TreeMap<>(selector).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(joining(","));
    }
}
