package io.pcapdiag.diagnosis;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.track.Attempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What {@code --service NS/NAME}, {@code --pod NS/NAME} and {@code --host IP[/LEN]} ask about: a report keeps only the
 * findings that concern one of them. A finding concerns
 * <ul>
 *   <li>a Service when the context names its target (the address and port dialed) or its client (a load balancer's
 *       probe sourced from the Service's ingress IP) as that Service: the Service was dialed, whichever of its ports;</li>
 *   <li>a pod when the context names as that pod its client, its target, its responder (the backend that answered in
 *       the Service's place, the pod that reset) or the backend the capture shows its SYN DNAT'ed to;</li>
 *   <li>a host prefix when one of those addresses (client, target, responder, DNAT'ed backend) lies in it.</li>
 * </ul>
 * The DNAT'ed backends are those of the finding's example attempts ({@link Finding#EXAMPLES}, the first in capture
 * time), the attempts its evidence comes from. With several of the options, a finding is kept when it concerns any.
 *
 * @param services {@code namespace/name} of Services
 * @param pods     {@code namespace/name} of pods
 * @param hosts    address prefixes
 */
public record Concern(List<String> services, List<String> pods, List<Prefix> hosts) {
    /** No option given: every finding is kept. */
    public static final Concern ALL = new Concern(List.of(), List.of(), List.of());

    public Concern {
        services = List.copyOf(services);
        pods = List.copyOf(pods);
        hosts = List.copyOf(hosts);
    }

    /**
     * The options as given; a name that is not {@code namespace/name} or a prefix that is not {@code IP[/LEN]} is an
     * {@link IllegalArgumentException} saying so.
     */
    public static Concern of(List<String> services, List<String> pods, List<String> hosts) {
        services.forEach(s -> namespaced("--service", s));
        pods.forEach(p -> namespaced("--pod", p));
        return new Concern(services, pods, hosts.stream().map(Prefix::parse).toList());
    }

    private static void namespaced(String option, String name) {
        int slash = name.indexOf('/');
        if (slash <= 0 || slash == name.length() - 1 || name.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException(option + " takes NAMESPACE/NAME, not '" + name + "'");
        }
    }

    /** Whether every finding is kept. */
    public boolean all() {
        return services.isEmpty() && pods.isEmpty() && hosts.isEmpty();
    }

    /** Whether a cluster snapshot is needed to tell: only the cluster names Services and pods. */
    public boolean needsNames() {
        return !services.isEmpty() || !pods.isEmpty();
    }

    /** The options as typed: {@code --service default/web, --host 10.244.0.0/16}. */
    public String said() {
        List<String> said = new ArrayList<>();
        services.forEach(s -> said.add("--service " + s));
        pods.forEach(p -> said.add("--pod " + p));
        hosts.forEach(h -> said.add("--host " + h));
        return String.join(", ", said);
    }

    /** Whether {@code f} concerns one of the Services, pods or hosts, as the class comment defines it. */
    public boolean concerns(Finding f, Context context) {
        if (all()) {
            return true;
        }
        for (String s : services) {
            if (Stream.of(f.target(), f.client()).anyMatch(e -> named(context, e, Ref.SERVICE, s))) {
                return true;
            }
        }
        List<Endpoint> addresses = addresses(f);
        for (String p : pods) {
            if (addresses.stream().anyMatch(e -> named(context, e.withoutPort(), Ref.POD, p))) {
                return true;
            }
        }
        return hosts.stream().anyMatch(h -> addresses.stream().anyMatch(h::contains));
    }

    /** The client, the target, the responder and the backends the example attempts were DNAT'ed to. */
    private static List<Endpoint> addresses(Finding f) {
        List<Endpoint> out = new ArrayList<>(List.of(f.client(), f.target()));
        if (f.responder() != null) {
            out.add(f.responder());
        }
        for (Attempt a : f.examples()) {
            if (a.natCopy() != null) {
                out.add(a.natCopy().destination());
            }
        }
        return out;
    }

    private static boolean named(Context context, Endpoint e, String kind, String namespaced) {
        Optional<Ref> ref = context.ref(e);
        return ref.isPresent() && ref.get().kind().equals(kind) && namespaced.equals(ref.get().namespace() + "/" + ref.get().name());
    }

    /**
     * An IPv4 or IPv6 prefix, {@code 10.244.0.0/16} or {@code 2001:db8::/32}; an address alone is the host itself. IPv4
     * is held IPv4-mapped, as {@link Ip} holds every address, so its length counts from bit 96.
     *
     * @param hi    the first 64 bits of the (mapped) address
     * @param lo    the last 64
     * @param bits  the prefix's length over all 128 bits
     * @param typed the prefix as given
     */
    public record Prefix(long hi, long lo, int bits, String typed) {
        static Prefix parse(String text) {
            int slash = text.indexOf('/');
            long[] a = Ip.parse(slash < 0 ? text : text.substring(0, slash));
            boolean v4 = Ip.isV4(a[0], a[1]);
            int max = v4 ? 32 : 128;
            int len = max;
            if (slash >= 0) {
                String l = text.substring(slash + 1);
                if (!l.matches("[0-9]{1,3}") || Integer.parseInt(l) > max) {
                    throw new IllegalArgumentException("--host takes IP or IP/LENGTH (0-" + max + "), not '" + text + "'");
                }
                len = Integer.parseInt(l);
            }
            return new Prefix(a[0], a[1], v4 ? 96 + len : len, text);
        }

        /** Whether {@code e}'s address lies in the prefix. */
        boolean contains(Endpoint e) {
            return top(e.hi(), Math.min(bits, 64)) == top(hi, Math.min(bits, 64))
                    && top(e.lo(), Math.max(bits - 64, 0)) == top(lo, Math.max(bits - 64, 0));
        }

        /** The first {@code n} bits of {@code v} (0-64), the rest zero. */
        private static long top(long v, int n) {
            return n == 0 ? 0 : v & (-1L << (64 - n));
        }

        @Override
        public String toString() {
            return typed;
        }
    }
}
