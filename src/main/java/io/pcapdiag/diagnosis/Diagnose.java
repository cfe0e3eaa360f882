package io.pcapdiag.diagnosis;

import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.causes.Causes;
import io.pcapdiag.causes.Verdict;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Judged;
import io.pcapdiag.rules.Rules;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Established;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;

/** Explains findings into {@link Diagnosis diagnoses}, with what the context knows. */
public final class Diagnose {
    private final Context context;
    private final boolean citeCaptures;
    private final Set<String> labelledNodes;

    /**
     * @param citeCaptures  the run reads several captures, so references to packets name the capture
     * @param labelledNodes the nodes the run's captures are labelled with ({@code --label}): a node among
     *                      them that never saw a SYN is known not to have seen it
     */
    public Diagnose(Context context, boolean citeCaptures, Set<String> labelledNodes) {
        this.context = context;
        this.citeCaptures = citeCaptures;
        this.labelledNodes = Set.copyOf(labelledNodes);
    }

    public Diagnosis of(Finding f) {
        Attempt first = f.examples().get(0);
        boolean connection = f.pattern().connection();
        List<PathHop> path = connection ? connectionPath(first) : path(first);
        PathHop last = null;
        String vanished = null;
        if (f.responder() == null) {
            last = path.get(path.size() - 1);
            vanished = vanished(f, first, path);
        } else if (f.pattern() == io.pcapdiag.rules.Pattern.PMTU_BLACKHOLE) {
            last = path.get(path.size() - 1); // where the segment too large for the path was seen last
        }
        List<CauseVerdict> causes = Causes.judge(f, context);
        Judged judged = id -> causes.stream().filter(c -> c.cause().id().equals(id)).map(c -> c.verdict().id()).findFirst()
                .orElse(null);
        Explanation x = Rules.rule(f.pattern()).explain(f, context, judged);
        String protocol = f.examples().get(0).udp() ? "UDP" : "TCP";
        return new Diagnosis(f, name(f.client(), protocol), name(f.target(), protocol),
                f.responder() == null ? null : name(f.responder(), protocol),
                causes, connection ? connectionEvidence(first, context) : evidence(first, context),
                connection ? connectionFrames(f.examples()) : frames(f.examples()),
                connection ? DisplayFilter.ofConnections(f.examples()) : DisplayFilter.of(f.examples()), decodeAs(f.examples()), path, last, vanished,
                new Explanation(x.story(), x.observations(), x.checks(), remedies(x.remedies(), causes)), citeCaptures,
                context.informs());
    }

    /**
     * The fixes in the order of their causes' verdicts: those of confirmed causes first, then consistent, then those of
     * causes no context could judge and those that fix no cause in particular (in the rule's order); never one for a
     * contradicted cause.
     */
    static List<Explanation.Remedy> remedies(List<Explanation.Remedy> remedies, List<CauseVerdict> causes) {
        Map<String, Verdict> by = new HashMap<>();
        causes.forEach(c -> by.put(c.cause().id(), c.verdict()));
        ToIntFunction<Explanation.Remedy> rank = r -> switch (r.cause() == null ? Verdict.UNKNOWN
                : by.getOrDefault(r.cause(), Verdict.UNKNOWN)) {
            case CONFIRMED -> 0;
            case CONSISTENT -> 1;
            case UNKNOWN -> 2;
            case CONTRADICTED -> 3;
        };
        return remedies.stream().filter(r -> rank.applyAsInt(r) < 3).sorted(Comparator.comparingInt(rank)).toList();
    }

    /** One attempt as {@code --attempts} lists it, with the pattern of the finding it belongs to (or null). */
    public AttemptView attempt(Attempt a, io.pcapdiag.rules.Pattern p) {
        return new AttemptView(a.client(), a.clientPort(), a.isn() & 0xffffffffL, a.target(),
                a.outcome().id(), p == null ? null : p.id(), a.responder(),
                a.retransmissions(), a.connectNanos(), a.synNanos(), path(a), a.kind(), a.query(), a.rcode());
    }

    /** Every kept packet of the attempts, each with its role in its attempt, in capture order per attempt. */
    static List<FrameRef> frames(List<Attempt> attempts) {
        List<FrameRef> out = new ArrayList<>();
        for (Attempt a : attempts) {
            long lastSyn = Long.MIN_VALUE;
            int sent = 0;
            for (Sighting s : a.frames()) {
                out.add(new FrameRef(s.capture.name(), s.capture.index(), s.frame, role(a, s, lastSyn, sent)));
                if (outbound(a, s) && s.destination().equals(a.target())) {
                    if (lastSyn == Long.MIN_VALUE || s.nanos - lastSyn >= io.pcapdiag.track.HandshakeTracker.RETRANSMIT_GAP_NANOS) {
                        sent++;
                        lastSyn = s.nanos;
                    }
                }
            }
        }
        return out;
    }

    /**
     * Every kept packet of the connections, each with its role: the handshake's packets as {@link #frames} has them,
     * then those kept after the handshake ({@link Established#kept}).
     */
    static List<FrameRef> connectionFrames(List<Attempt> attempts) {
        List<FrameRef> out = new ArrayList<>(frames(attempts));
        for (Attempt a : attempts) {
            for (Sighting s : a.established().kept()) {
                out.add(new FrameRef(s.capture.name(), s.capture.index(), s.frame, connectionRole(a, s).id()));
            }
        }
        return out;
    }

    /** What a packet kept after the handshake is in its connection's story. */
    private static Role connectionRole(Attempt a, Sighting s) {
        Established e = a.established();
        if (s.icmp) {
            return Role.ICMP;
        }
        if ((s.flags & PacketView.RST) != 0) {
            return s.source().sameAddress(a.client()) && s.srcPort == a.clientPort() ? Role.CLIENT_RST : Role.RST;
        }
        if (s == e.wrongSource()) {
            return Role.BYPASS;
        }
        List<Sighting> sends = e.lost() != null ? e.lost().lostSends() : e.client().unacknowledged();
        return !sends.isEmpty() && s == sends.get(0) ? Role.SEGMENT : Role.RESEND;
    }

    /**
     * The packets that tell a connection's story after its handshake: its SYN and DNAT'ed copy; the segment that went
     * unacknowledged, its last retransmission and the first ICMP error about it; the segment from the wrong source and
     * the client's RST; the RST that ended it.
     */
    static List<EvidencePacket> connectionEvidence(Attempt a, Context context) {
        Established e = a.established();
        List<Sighting> told = new ArrayList<>();
        List<Sighting> sends = e.lost() != null ? e.lost().lostSends() : e.client().unacknowledged();
        if (!sends.isEmpty()) {
            told.add(sends.get(0));
            sends.stream().filter(s -> s.nanos - sends.get(0).nanos >= io.pcapdiag.track.HandshakeTracker.RETRANSMIT_GAP_NANOS)
                    .reduce((x, y) -> y.nanos - x.nanos >= io.pcapdiag.track.HandshakeTracker.RETRANSMIT_GAP_NANOS ? y : x)
                    .ifPresent(told::add);
        }
        if (!e.tooBig().isEmpty()) {
            told.add(e.tooBig().get(0));
        }
        for (Sighting s : new Sighting[] {e.wrongSource(), e.clientResetOther(), e.unreachable(), e.serverReset()}) {
            if (s != null) {
                told.add(s);
            }
        }
        told.sort(Comparator.comparingLong(s -> s.nanos));
        List<EvidencePacket> out = new ArrayList<>();
        out.add(packet(Role.SYN, a.syn(), context));
        if (a.natCopy() != null) {
            out.add(packet(Role.DNAT_COPY, a.natCopy(), context));
        }
        for (Sighting s : told) {
            out.add(packet(connectionRole(a, s), s, context));
        }
        return out;
    }

    /**
     * The places a connection's lost segment was seen (an MTU black hole: where it was seen last is where it stopped);
     * for the other patterns after the handshake, the SYN's.
     */
    List<PathHop> connectionPath(Attempt a) {
        Established.Side lost = a.established().lost();
        if (lost == null) {
            return path(a);
        }
        Sighting first = lost.lostSends().get(0);
        List<Sighting> copies = new ArrayList<>(List.of(first));
        a.established().kept().stream().filter(s -> !s.icmp && s.seq == first.seq && s.length > 0
                && s.source().equals(first.source())).forEach(copies::add);
        List<PathHop> hops = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Sighting s : copies) {
            PathHop hop = new PathHop(s.capture.name(), s.frame, s.nanos, s.capture.node(), iface(s, context), direction(s),
                    s.destination(), false, s.tunnel == null ? null : s.tunnel.toString());
            if (seen.add(hop.capture() + "|" + hop.node() + "|" + hop.iface() + "|" + hop.direction() + "|" + hop.destination())) {
                hops.add(hop);
            }
        }
        return hops;
    }

    /** What tshark's {@code -d} needs for the display filter to see inside the tunnels these frames came in, or null. */
    static String decodeAs(List<Attempt> attempts) {
        return attempts.stream().flatMap(a -> a.frames().stream()).filter(s -> s.tunnel != null)
                .map(s -> s.tunnel.wiresharkDecodeAs()).filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** What {@code s} is in attempt {@code a}; {@code sent} SYN transmissions came before it, the last at {@code lastSyn}. */
    private static String role(Attempt a, Sighting s, long lastSyn, int sent) {
        if (s.icmp) {
            return a.udp() && s.source().sameAddress(a.client()) ? Role.CLIENT_ICMP.id() : Role.ICMP.id();
        }
        if (a.exchange()) {
            if (!outbound(a, s)) {
                return Role.ANSWER.id();
            }
            if (!s.destination().equals(a.target())) {
                return Role.DNAT_COPY.id();
            }
            String sends = a.query() == null ? Role.DATAGRAM.id() : Role.QUERY.id();
            if (sent == 0) {
                return sends;
            }
            return s.nanos - lastSyn < io.pcapdiag.track.HandshakeTracker.RETRANSMIT_GAP_NANOS ? sends + " copy"
                    : sends + " resend " + sent;
        }
        int f = s.flags & (PacketView.SYN | PacketView.ACK | PacketView.RST);
        if (f == PacketView.SYN) {
            if (!s.destination().equals(a.target())) {
                return Role.DNAT_COPY.id();
            }
            if (sent == 0) {
                return Role.SYN.id();
            }
            return s.nanos - lastSyn < io.pcapdiag.track.HandshakeTracker.RETRANSMIT_GAP_NANOS ? "syn copy" : "syn retransmission " + sent;
        }
        if ((f & PacketView.SYN) != 0) {
            return Role.SYN_ACK.id();
        }
        return s.source().sameAddress(a.client()) && s.srcPort == a.clientPort() ? Role.CLIENT_RST.id() : Role.RST.id();
    }

    /** Whether {@code s} travels from the client: its SYN (copies, retransmissions), or a datagram of its UDP exchange. */
    private static boolean outbound(Attempt a, Sighting s) {
        if (s.icmp) {
            return false;
        }
        if (a.exchange()) {
            return s.srcPort == a.clientPort() && a.clientIs(s.srcHi, s.srcLo);
        }
        return (s.flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == PacketView.SYN;
    }

    /**
     * The places the SYN was seen, each once, in the order it first got there: the client's veth, the
     * bridge, out again after DNAT, the backend's veth; another node's capture.
     */
    List<PathHop> path(Attempt a) {
        List<PathHop> hops = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Sighting s : a.frames()) {
            if (!outbound(a, s)) {
                continue; // answers travel the other way
            }
            PathHop hop = hop(a, s);
            if (seen.add(hop.capture() + "|" + hop.node() + "|" + hop.iface() + "|" + hop.direction() + "|" + hop.destination())) {
                hops.add(hop);
            }
        }
        return hops;
    }

    private PathHop hop(Attempt a, Sighting s) {
        Endpoint dst = s.destination();
        return new PathHop(s.capture.name(), s.frame, s.nanos, s.capture.node(), iface(s, context), direction(s), dst,
                !dst.equals(a.target()), s.tunnel == null ? null : s.tunnel.toString());
    }

    /**
     * Between which two places an unanswered SYN vanished, when that can be told: the node's topology says
     * where a packet to its (DNAT'ed) destination goes after the last place it was seen; or captures from
     * several nodes show it left one and never reached the target's.
     */
    String vanished(Finding f, Attempt a, List<PathHop> path) {
        PathHop last = path.get(path.size() - 1);
        Endpoint dst = a.natCopy() != null ? a.natCopy().destination() : a.target();
        String targetNode = context.ref(dst).map(Ref::node).orElse(null);
        if (targetNode != null && last.node() != null && !targetNode.equals(last.node())
                && labelledNodes.contains(targetNode) && path.stream().noneMatch(h -> targetNode.equals(h.node()))) {
            return "after " + last.place() + ", before " + targetNode + ": it left " + last.node() + " and never reached "
                    + targetNode + " (its capture has no copy of it)";
        }
        // The topology of the node where the SYN was last seen tells what comes next there; it places the loss only
        // where the capture says where it was taken (an interface), or a tunnel's address says it.
        Context there = context.forNode(last.node());
        Set<String> leftBy = new HashSet<>();
        boolean placed = last.iface() != null;
        for (PathHop h : path) {
            // A device it left through (or seen on, where the capture does not tell the direction); arriving on a
            // device is not leaving by it.
            if (Objects.equals(h.node(), last.node()) && h.iface() != null && !"in".equals(h.direction())) {
                leftBy.add(h.iface());
            }
        }
        for (Sighting s : a.frames()) {
            // Inside a tunnel, on a capture that does not name its interface: it was on the device that holds the
            // node's end of the tunnel (eth0 under flannel.1): leaving when the tunnel starts here, else arriving.
            if (s.tunnel != null && s.interfaceName == null && s.ifIndex < 0 && !s.icmp
                    && Objects.equals(s.capture.node(), last.node())) {
                Optional<String> out = there.localAddress(s.tunnel.source()).map(Reading::value);
                out.ifPresent(leftBy::add);
                placed |= out.isPresent() || there.localAddress(s.tunnel.destination()).map(Reading::value).isPresent();
            }
        }
        if (!placed) {
            return null;
        }
        String after = "after " + last.place() + (last.afterDnat() ? " (DNAT'ed to " + last.destination() + ")" : "");
        Optional<Reading> local = there.localAddress(dst.withoutPort());
        if (local.isPresent() && local.get().value() != null) {
            return after + ", inside the node: " + dst.address() + " is its own address (on " + local.get().value()
                    + "), and no answer left it";
        }
        if (a.natCopy() == null) {
            Optional<io.pcapdiag.context.ServiceFacts> svc = there.service(dst);
            if (svc.isPresent()) {
                return after + ", before a DNAT'ed copy to a backend of " + svc.get().ref().text() + ": none was captured";
            }
        }
        List<String> expected = there.expectedPath(dst.withoutPort());
        if (expected.isEmpty()) {
            return null;
        }
        int reached = -1;
        for (int i = 0; i < expected.size(); i++) {
            if (leftBy.contains(expected.get(i))) {
                reached = i;
            }
        }
        if (reached == expected.size() - 1) {
            return after + ", at " + expected.get(reached) + " or beyond: it was delivered towards " + dst.address()
                    + " and no answer came back";
        }
        return after + ", before " + expected.get(reached + 1);
    }

    private Ref name(io.pcapdiag.decode.Endpoint e, String protocol) {
        return context.ref(e, protocol).orElse(null);
    }

    /**
     * The packets of one attempt that tell its story: its SYN, its DNAT'ed copy, the answer, the client's reset; of a
     * UDP exchange its query (or datagram), the DNAT'ed copy, the first re-send, the answer or ICMP error, the client's
     * ICMP error refusing a bypassing answer.
     */
    static List<EvidencePacket> evidence(Attempt a, Context context) {
        List<EvidencePacket> out = new ArrayList<>(4);
        if (!a.quoteOnly()) {
            out.add(packet(!a.exchange() ? Role.SYN : a.query() == null ? Role.DATAGRAM : Role.QUERY, a.syn(), context));
        }
        if (a.natCopy() != null) {
            out.add(packet(Role.DNAT_COPY, a.natCopy(), context));
        }
        if (a.exchange() && a.retransmissions() > 0) {
            a.frames().stream().filter(s -> outbound(a, s) && s.destination().equals(a.target())
                    && s.nanos - a.synNanos() >= io.pcapdiag.track.HandshakeTracker.RETRANSMIT_GAP_NANOS).findFirst()
                    .ifPresent(s -> out.add(packet(Role.RESEND, s, context)));
        }
        Sighting answer = a.answer();
        if (answer != null) {
            out.add(packet(answer.icmp ? Role.ICMP : answer == a.reset() ? Role.RST : a.exchange() ? Role.ANSWER : Role.SYN_ACK,
                    answer, context));
        }
        if (a.clientReset() != null) {
            out.add(packet(a.udp() ? Role.CLIENT_ICMP : Role.CLIENT_RST, a.clientReset(), context));
        }
        if (a.exchange()) {
            // A re-sent query comes seconds after the answer to the first one: the list goes in capture order.
            out.sort(java.util.Comparator.comparingLong(EvidencePacket::nanos));
        }
        return out;
    }

    /**
     * The interface {@code s} was seen on: the capture's name for it, the node facts' name for a Linux cooked
     * capture's index ({@code ifindex N} when they do not know it), the label's, or null.
     */
    private static String iface(Sighting s, Context context) {
        if (s.interfaceName != null) {
            return s.interfaceName;
        }
        if (s.ifIndex >= 0) {
            return context.forNode(s.capture.node()).interfaceName(s.ifIndex).orElse("ifindex " + s.ifIndex);
        }
        return s.capture.labelledInterface();
    }

    /** In or out of that interface, where the capture tells (a Linux cooked capture's packet type), else null. */
    private static String direction(Sighting s) {
        return switch (s.packetType) {
            case 0, 1, 2, 3 -> "in";
            case 4 -> "out";
            default -> null;
        };
    }

    /** An evidence packet; a Linux cooked capture's interface index is named when the node facts know it. */
    private static EvidencePacket packet(Role role, Sighting s, Context context) {
        String where = PacketLine.where(s);
        if (s.interfaceName == null && s.ifIndex >= 0) {
            Optional<String> name = context.forNode(s.capture.node()).interfaceName(s.ifIndex);
            if (name.isPresent()) {
                where = where.replace("ifindex " + s.ifIndex, name.get());
            }
        }
        return new EvidencePacket(role, s.capture.name(), s.frame, s.nanos, where, iface(s, context), direction(s),
                PacketLine.tcpdump(s));
    }
}
