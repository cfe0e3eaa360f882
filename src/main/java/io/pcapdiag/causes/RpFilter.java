package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.node.NodeFacts;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code rp-filter}: the kernel's reverse-path check drops the SYN where it enters IPv4 (fib_validate_source,
 * net/ipv4/fib_frontend.c). The mode in force on the ingress device is max(conf.all.rp_filter, conf.DEV.rp_filter)
 * (IN_DEV_RPFILTER); 0 checks nothing, 1 (strict) drops when the route back to the source does not leave by the
 * ingress device ({@code fib_info_nh_uses_dev}), any other value (loose) only when there is no route back at all.
 * Each drop counts TcpExtIPReversePathFilter (-EXDEV in ip_rcv_finish_core). A packet the node sends itself never
 * passes the check. IPv6 has no rp_filter sysctl.
 */
final class RpFilter implements CauseRule {
    static final String DROPS = "TcpExtIPReversePathFilter";
    /** Linux's PACKET_OUTGOING, as Linux cooked captures record a packet the node sent. */
    private static final int OUTGOING = 4;

    @Override
    public Cause cause() {
        return Cause.RP_FILTER;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.NO_RESPONSE);
    }

    /** IPv4 only: IPv6 has no rp_filter sysctl (ip6tables' rpfilter match does that job). */
    @Override
    public boolean applies(Finding f) {
        return f.client().isV4();
    }

    /** Where the SYN entered the node: the interface the capture names, else the one the node facts infer. */
    record Ingress(String iface, Optional<Fact> inferred) {
    }

    /**
     * The first interface the capture saw the SYN come in on (its IDB name, {@code --label}, or the SLL2 interface
     * index named by the node facts); else the interface holding the dialed address, inferred.
     */
    static Optional<Ingress> ingress(Attempt a, Context context) {
        for (Sighting s : a.frames()) {
            if (s.icmp || (s.flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) != PacketView.SYN
                    || s.packetType == OUTGOING || s.tunnel != null) {
                continue;
            }
            String name = s.interfaceName != null ? s.interfaceName : context.interfaceName(s.ifIndex).orElse(null);
            if (name != null) {
                return Optional.of(new Ingress(name, Optional.empty()));
            }
        }
        return context.ingressFor(a.target().withoutPort()).map(r -> new Ingress(r.value(), Optional.of(r.fact())));
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Attempt a = f.examples().get(0);
        Optional<Reading> sender = context.localAddress(f.client().withoutPort()).filter(r -> r.value() != null);
        Optional<Ingress> in = ingress(a, context);
        Optional<Reading> mode = in.flatMap(i -> context.rpFilter(i.iface()));
        String dev = mode.map(Reading::subject).orElse("<interface>");
        List<String> fix = List.of("sysctl -w " + NodeFacts.interfaceSysctlKey("all", "rp_filter") + "=2 "
                + NodeFacts.interfaceSysctlKey(dev, "rp_filter") + "=2   (loose mode)");
        if (sender.isPresent()) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(sender.get().fact(), new Fact(sender.get().fact().source(),
                    "a packet the node sends itself never passes the reverse-path check")), fix);
        }
        // Without the ingress device, the mode is known only when every interface has the same kind of check.
        if (mode.isEmpty() && in.isEmpty()) {
            mode = context.rpFilterEverywhere();
        }
        Optional<Reading> drops = context.counterRise(DROPS);
        Optional<Reading> back = context.routeBack(f.client().withoutPort());
        List<Fact> facts = new ArrayList<>();
        in.flatMap(Ingress::inferred).ifPresent(facts::add);
        Causes.addFact(facts, mode);
        Causes.addFact(facts, back);
        Causes.addFact(facts, drops);
        if (facts.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        if (ConntrackFull.rose(drops)) {
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        String backDev = back.map(Reading::value).orElse(null);
        boolean routeKnown = back.isPresent();
        boolean backByIngress = routeKnown && backDev != null && in.isPresent()
                && backDev.equals(mode.map(Reading::subject).orElse(in.get().iface()));
        if (backByIngress) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix); // neither mode drops it
        }
        if (mode.isEmpty()) {
            if (in.isEmpty()) {
                facts.add(new Fact(Source.CAPTURE, "which interface the SYN came in on is unknown: the"
                        + " capture does not say, and the dialed address is none the node facts place on an interface"));
            }
            return new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
        }
        long rp = number(mode.get());
        if (rp == 0) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (!routeKnown) {
            return new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
        }
        boolean dropped = rp == 1 || backDev == null; // strict: any other way back drops it; loose: only no way back
        return new CauseVerdict(cause(), dropped ? Verdict.CONFIRMED : Verdict.CONTRADICTED, facts, fix);
    }

    private static long number(Reading r) {
        Long n = ConntrackFull.number(r.value());
        return n == null ? -1 : n;
    }
}
