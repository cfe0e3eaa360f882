package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.Source;
import io.pcapdiag.context.TunnelFacts;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Established;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code overlay-mtu-mismatch}: the pod that sent the lost segment has an interface MTU the overlay cannot carry. A
 * forwarded packet larger than the MTU of the device its route leaves by (the tunnel device, flannel.1) is dropped with
 * DF set and answered by ICMP "fragmentation needed" (ip_forward and ip_exceeds_mtu, net/ipv4/ip_forward.c; IPv6:
 * ip6_pkt_too_big, net/ipv6/ip6_output.c); one that fits the tunnel device but, encapsulated, not the underlay lowers the
 * route's path MTU to the underlay's less the tunnel's headroom, and the next such packet is refused alike
 * (skb_tunnel_check_pmtu, net/ipv4/ip_tunnel_core.c, from vxlan_xmit_one and geneve_xmit). Either way the pod's TCP
 * sends segments of its own interface's MTU and the path stays open only if that ICMP reaches it.
 *
 * <p>Judged on the sender's node's facts (the cluster names its node; node facts answer for their own node only):
 * confirmed when the MTU of the interface the capture first saw the segment on exceeds the tunnel device's MTU, or
 * with the tunnel's overhead the underlay's; contradicted when it fits both, or no tunnel carries the packets (the node
 * has no tunnel device, or its route to the peer leaves by its own pods' bridge). When the capture does not show the
 * sender's interface (a pod's eth0 without interface names, a capture of another node, a copy inside the tunnel), the
 * largest MTU of the node's pod veths stands for it: consistent, not confirmed, when it exceeds, and contradicted when
 * even it fits. Consistent also when the route does not name the node's one tunnel device (a BPF datapath's routes do
 * not). Unknown without the sender's node's facts.
 */
final class OverlayMtuMismatch implements CauseRule {
    /** Linux's PACKET_OUTGOING, as Linux cooked captures record a packet the node sent. */
    static final int OUTGOING = 4;

    @Override
    public Cause cause() {
        return Cause.OVERLAY_MTU_MISMATCH;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.PMTU_BLACKHOLE);
    }

    /** Where the sender put the lost segment on the wire: the interface, or why the capture does not show it. */
    record SenderInterface(String iface, String unknownWhy) {
    }

    /**
     * The interface the sender of the segment first seen as {@code first} put it on, as the capture names it; none when
     * that copy was not taken on the sender's node ({@code senderNode}, when the cluster knows it), came inside a tunnel
     * (from another node), or was leaving the node (on its way to the receiver).
     */
    static SenderInterface senderInterface(Sighting first, Optional<String> senderNode, Context context) {
        String seenOn = Names.node(first, context);
        if (senderNode.isPresent() && seenOn != null && !senderNode.get().equals(seenOn)) {
            return new SenderInterface(null, "the capture was taken on " + seenOn + " and " + first.source().address()
                    + " runs on " + senderNode.get());
        }
        if (first.tunnel != null) {
            return new SenderInterface(null, "it was first seen inside a tunnel (" + first.ref(false) + "), arriving from"
                    + " another node");
        }
        String iface = Names.iface(first, context);
        if (first.packetType == OUTGOING) {
            return new SenderInterface(null, "it was first seen leaving the node" + (iface == null ? "" : " by " + iface)
                    + " (" + first.ref(false) + "), on its way to " + first.destination().address());
        }
        if (iface == null || iface.startsWith("ifindex ")) {
            return new SenderInterface(null, "the capture names no interface for " + first.ref(false));
        }
        return new SenderInterface(iface, null);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Established.Side lost = f.examples().get(0).established().lost();
        Sighting first = lost.lostSends().get(0);
        Endpoint sender = first.source().withoutPort();
        Optional<String> senderNode = context.nodeOf(sender);
        // Node facts answer for their own node: the sender's, when the cluster names it; else the capture's.
        Context node = context.forNode(senderNode.orElse(first.capture.node()));
        String nodeName = senderNode.orElse(Names.node(first, context));
        Optional<TunnelFacts> tunnel = node.tunnel(first.destination().withoutPort());
        SenderInterface seen = senderInterface(first, senderNode, context);
        boolean tunnelSide = seen.iface() != null && tunnel.isPresent()
                && (seen.iface().equals(tunnel.get().device()) || seen.iface().equals(tunnel.get().underlay()));
        Optional<Reading> mtu = seen.iface() == null || tunnelSide ? Optional.empty() : node.interfaceMtu(seen.iface());
        boolean identified = mtu.isPresent();
        List<Fact> facts = new ArrayList<>();
        if (identified) {
            facts.add(Fact.capture("the capture first saw the lost segment on " + seen.iface() + " (" + first.ref(false)
                    + "), where " + sender.address() + " sent it"));
        } else {
            mtu = node.largestPodMtu();
            if (mtu.isPresent()) {
                facts.add(Fact.capture("which interface " + sender.address() + " sent the lost segment by the capture does not"
                        + " show (" + (tunnelSide ? "it was first seen on " + seen.iface() + ", the tunnel's side" : seen.unknownWhy())
                        + "): the largest MTU of its node's pod veths stands for it"));
            }
        }
        List<String> fix = fix(f, context, sender, nodeName, identified ? seen.iface() : null, tunnel.orElse(null));
        if (tunnel.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        TunnelFacts t = tunnel.get();
        if (t.device() == null) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(t.fact()), fix);
        }
        mtu.map(Reading::fact).ifPresent(facts::add);
        facts.add(t.fact());
        if (mtu.isEmpty() || t.mtu() == null && t.underlayMtu() == null) {
            return new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
        }
        int s = Integer.parseInt(mtu.get().value());
        String dev = mtu.get().subject();
        boolean overTunnel = t.mtu() != null && s > t.mtu();
        boolean overUnderlay = t.underlayMtu() != null && s + t.overhead() > t.underlayMtu();
        List<String> parts = new ArrayList<>();
        if (t.mtu() != null) {
            parts.add(s + (overTunnel ? " is above " : " is at most ") + t.device() + "'s MTU " + t.mtu());
        }
        if (t.underlayMtu() != null) {
            parts.add(s + " + " + t.overhead() + " = " + (s + t.overhead()) + (overUnderlay ? " is above " : " is at most ")
                    + t.underlay() + "'s MTU " + t.underlayMtu());
        }
        boolean exceeds = overTunnel || overUnderlay;
        facts.add(new Fact(Source.NODE, "a packet of " + dev + "'s MTU " + (exceeds ? "does not fit" : "fits") + " the overlay"
                + " of " + nodeOr(nodeName) + ": " + String.join(", and ", parts)));
        if (exceeds) {
            return new CauseVerdict(cause(), identified && t.routed() ? Verdict.CONFIRMED : Verdict.CONSISTENT, facts, fix);
        }
        // The least overhead of Geneve or GRE fitting the underlay proves nothing when the tunnel's own MTU is unknown.
        boolean proved = t.mtu() != null || t.exact();
        return new CauseVerdict(cause(), proved ? Verdict.CONTRADICTED : Verdict.CONSISTENT, facts, fix);
    }

    private static String nodeOr(String node) {
        return node != null ? node : "the node";
    }

    /**
     * Setting the CNI's MTU to what the overlay carries (the underlay's MTU less the tunnel's overhead, and no more than
     * the tunnel device's), and the sender pod's interface now, with the finding's names.
     */
    private static List<String> fix(Finding f, Context context, Endpoint sender, String node, String iface, TunnelFacts t) {
        String target = "<the underlay's MTU less the tunnel's overhead>";
        String because = "";
        if (t != null && t.device() != null && (t.underlayMtu() != null || t.mtu() != null)) {
            int carried = t.underlayMtu() != null ? t.underlayMtu() - t.overhead() : t.mtu();
            if (t.mtu() != null) {
                carried = Math.min(carried, t.mtu());
            }
            target = String.valueOf(carried);
            because = t.underlayMtu() != null ? " (" + t.underlay() + "'s " + t.underlayMtu() + " less " + t.overhead()
                    + " bytes of " + t.kind() + " headers)" : " (" + t.device() + "'s MTU)";
        }
        Optional<Ref> pod = context.ref(sender).filter(r -> Ref.POD.equals(r.kind()));
        String restart = pod.map(r -> "kubectl -n " + r.namespace() + " delete pod " + r.name())
                .orElse("restart the pods of " + sender.address());
        List<String> fix = new ArrayList<>();
        fix.add("set the CNI's MTU to " + target + because + " on every node (/etc/cni/net.d, or the CNI's ConfigMap), then "
                + restart + "   (a new pod takes it)");
        if (iface != null) {
            fix.add("ip link set dev " + iface + " mtu " + target + "   (on " + nodeOr(node) + ", now, and the pod's eth0 alike:"
                    + " nsenter -t <its pid> -n ip link set dev eth0 mtu " + target + ")");
        }
        return fix;
    }
}
