package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Established;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code frag-needed-blocked}: the ICMP "fragmentation needed" (ICMPv6 "packet too big") that would have lowered the
 * sender's path MTU was sent but never reached it. A sender that gets one lowers its path MTU and sends the data again
 * in smaller segments (RFC 1191 3, RFC 8201 4; tcp_v4_err and tcp_v6_err); one that never does retransmits the same
 * full-size segment (RFC 2923 2.1), which is the pattern. Judged from the capture alone, against the place the sender's
 * segment was first seen (its pod's veth in a node's {@code -i any}, or the pod's own eth0): confirmed when such an ICMP
 * quoting the sender's segments was captured elsewhere and never there (dropped or never reverse-NAT'ed on its way);
 * contradicted when it was captured there (it reached the sender's side); consistent when the capture does not show
 * the sender's side (the segment first seen inside a tunnel or leaving the node); unknown when none was captured (never
 * sent, or dropped before any capture point).
 */
final class FragNeededBlocked implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.FRAG_NEEDED_BLOCKED;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.PMTU_BLACKHOLE);
    }

    /**
     * Whether the ICMP error {@code icmp} quotes a segment of the lost side: one to the client's address and port when the
     * server's segment was lost, one from it otherwise (its destination, the Service or the backend, may be NAT'ed).
     */
    static boolean quotesLostSide(Sighting icmp, Attempt a, boolean serverLost) {
        boolean toClient = icmp.quotedDstPort == a.clientPort() && a.clientIs(icmp.quotedDstHi, icmp.quotedDstLo);
        return toClient == serverLost;
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Attempt a = f.examples().get(0);
        Established e = a.established();
        Established.Side lost = e.lost();
        Sighting first = lost.lostSends().get(0);
        List<Sighting> icmp = new ArrayList<>();
        for (Sighting s : e.tooBig()) {
            if (quotesLostSide(s, a, lost == e.server())) {
                icmp.add(s);
            }
        }
        return verdict(first, icmp, context);
    }

    /**
     * The verdict for the lost segment first seen as {@code first}, given the ICMP errors {@code icmp} captured about it
     * (every copy, in capture order).
     */
    static CauseVerdict verdict(Sighting first, List<Sighting> icmp, Context context) {
        Cause cause = Cause.FRAG_NEEDED_BLOCKED;
        List<String> fix = fix(icmp.isEmpty() ? null : icmp.get(0), first, context);
        if (icmp.isEmpty()) {
            return CauseVerdict.unknown(cause, fix);
        }
        Sighting one = icmp.get(0);
        String what = "ICMP " + (one.ipVersion == 4 ? "\"fragmentation needed\"" : "\"packet too big\"")
                + (one.icmpMtu > 0 ? " (MTU " + one.icmpMtu + ")" : "") + " from " + one.source().address() + " to "
                + one.destination().address();
        String whereFirst = where(first, context);
        String firstRef = " (" + first.ref(false) + ")";
        List<Sighting> there = new ArrayList<>();
        for (Sighting s : icmp) {
            if (Names.samePlace(s, first)) {
                there.add(s);
            }
        }
        if (!there.isEmpty()) {
            return new CauseVerdict(cause, Verdict.CONTRADICTED, List.of(Fact.capture(what + " reached the sender's side: it"
                    + " was captured " + whereFirst + " (" + refs(there) + "), where the lost segment was first seen"
                    + firstRef)), fix);
        }
        Set<String> places = new LinkedHashSet<>();
        icmp.forEach(s -> places.add(where(s, context)));
        String seen = what + ", quoting the lost segments, was captured " + String.join(", ", places) + " (" + refs(icmp) + ")";
        if (first.tunnel != null || first.packetType == OverlayMtuMismatch.OUTGOING) {
            return new CauseVerdict(cause, Verdict.CONSISTENT, List.of(Fact.capture(seen + "; whether it reached the sender"
                    + " the capture cannot tell: it does not show the sender's side, the lost segment was first seen "
                    + (first.tunnel != null ? "inside a tunnel " : "leaving the node ") + whereFirst + firstRef)), fix);
        }
        return new CauseVerdict(cause, Verdict.CONFIRMED, List.of(Fact.capture(seen + ", and never " + whereFirst
                + ", where the lost segment was first seen" + firstRef + ": it did not reach the sender")), fix);
    }

    /** {@code on cni0}, {@code on ifindex 7}, or {@code where the capture was taken} when it names no interface. */
    private static String where(Sighting s, Context context) {
        String iface = Names.iface(s, context);
        return iface != null ? "on " + iface : "where the capture was taken";
    }

    /** {@code #46, #48, #79}, or {@code #46, #48 ... #79, 16 in all}: a fact's line stays bounded however many were seen. */
    private static String refs(List<Sighting> all) {
        if (all.size() > 3) {
            return all.get(0).ref(false) + ", " + all.get(1).ref(false) + " ... " + all.get(all.size() - 1).ref(false)
                    + ", " + all.size() + " in all";
        }
        List<String> out = new ArrayList<>();
        for (Sighting s : all) {
            out.add(s.ref(false));
        }
        return String.join(", ", out);
    }

    /**
     * Letting the ICMP through where it was captured last: the node sends it itself when its source is one of the node's
     * addresses (the OUTPUT chain), else forwards it (FORWARD). An ACCEPT loosens the node's filtering and is said to.
     */
    private static List<String> fix(Sighting icmp, Sighting first, Context context) {
        boolean v6 = first.ipVersion == 6;
        Sighting at = icmp != null ? icmp : first;
        String node = Names.node(at, context);
        Optional<Reading> local = icmp == null ? Optional.empty()
                : context.forNode(icmp.capture.node()).localAddress(icmp.source()).filter(r -> r.value() != null);
        String chain = icmp == null ? "FORWARD" : local.isPresent() ? "OUTPUT" : "FORWARD";
        String why = local.isPresent() ? "the node sends it itself, from " + icmp.source().address() + " on " + local.get().value()
                : "the node forwards it";
        String rule = v6 ? "ip6tables -I " + chain + " -p icmpv6 --icmpv6-type packet-too-big -j ACCEPT"
                : "iptables -I " + chain + " -p icmp --icmp-type fragmentation-needed -j ACCEPT";
        return List.of(rule + "   (on " + (node != null ? node : "the node") + (icmp == null ? "" : "; " + why) + "; this loosens"
                + " its filtering: find the rule that drops them first, iptables-save | grep -i icmp)");
    }
}
