package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Established;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code pmtu-blackhole}: after the handshake, a data segment was sent again at least twice and never acknowledged,
 * while smaller segments of the connection were ({@link Established.Side#lostSends}): the segment is too large for
 * the path and the sender never learnt so. Its size, both SYNs' MSS and any ICMP "fragmentation needed" / "packet too
 * big" quoting it (and where each was captured) are the evidence.
 */
final class PmtuBlackhole implements ConnectionRule {
    @Override
    public Pattern pattern() {
        return Pattern.PMTU_BLACKHOLE;
    }

    @Override
    public boolean matches(Attempt a) {
        return a.established().lost() != null;
    }

    @Override
    public Endpoint responder(Attempt a) {
        return a.established().lost().lostSends().get(0).source();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Established e = a.established();
        Established.Side lost = e.lost();
        List<Sighting> sends = lost.lostSends();
        Sighting first = sends.get(0);
        Sighting last = sends.get(sends.size() - 1);
        int headers = lost.lostIpPayload() - lost.lostLength() + (first.ipVersion == 4 ? 20 : 40);
        int packet = lost.lostIpPayload() + (first.ipVersion == 4 ? 20 : 40);
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " connected to " + f.target() + "; the SYN offered MSS " + mss(e.client())
                + ", the SYN-ACK MSS " + mss(e.server()) + ".", a.syn()));
        long resent = lost.lostRetransmissions();
        story.add(Statement.seen(first.source() + " sent " + lost.lostLength() + " bytes of data in a " + packet
                + "-byte packet and sent the same segment again " + Words.times(resent) + " over "
                + Words.seconds(last.nanos - first.nanos) + "; it was never acknowledged, while "
                + (lost.largestAcked() > 0 ? "its segments of up to " + lost.largestAcked() + " bytes were"
                        : "the other end's smaller segments were") + ".", Words.some(sends)));
        List<Sighting> tooBig = e.tooBig();
        if (tooBig.isEmpty()) {
            story.add(Statement.seen("No ICMP \"fragmentation needed\" or \"packet too big\" quoting it was captured."));
        } else {
            Sighting icmp = tooBig.get(0);
            String error = icmp.ipVersion == 4 ? "\"fragmentation needed\"" : "\"packet too big\"";
            story.add(Statement.seen(icmp.source() + " answered with ICMP " + error + mtu(icmp) + ", addressed to "
                    + icmp.destination() + (tooBig.size() > 1 ? ": " + tooBig.size() + " such errors about the connection's"
                    + " segments were captured" : "") + ".", Words.some(tooBig)));
        }
        story.add(Statement.cited("A sender that gets ICMP \"fragmentation needed\" (ICMPv6 \"packet too big\") for a segment"
                + " lowers its path MTU and sends the data again in smaller segments; when the ICMP never reaches it, it"
                + " retransmits the same full-size segment until it gives up.", "RFC 1191 3; RFC 8201 4; RFC 2923 2.1"));
        List<String> readings = new ArrayList<>();
        if (!judged.ruledOut("overlay-mtu-mismatch")) {
            readings.add("the sending pod's interface MTU is larger than what the overlay carries: " + packet
                    + " bytes plus the tunnel's header do not fit the underlay");
        }
        if (!judged.ruledOut("frag-needed-blocked")) {
            readings.add("the ICMP that would have told the sender was dropped or never reverse-NAT'ed to it");
        }
        if (!readings.isEmpty()) {
            story.add(Statement.likely(capitalised(String.join("; and ", readings)) + "."));
        }
        List<Statement> obs = new ArrayList<>();
        obs.add(Statement.seen("the segment carried " + headers + " bytes of IP and TCP headers"));
        if (lost == e.server() && !e.client().lostSends().isEmpty() || lost == e.client() && !e.server().lostSends().isEmpty()) {
            obs.add(Statement.seen("the other direction lost a full-size segment the same way"));
        }
        List<String> checks = new ArrayList<>();
        if (!judged.answered("overlay-mtu-mismatch")) {
            checks.add("ip -d link show   (on the sender's node: its pods' veths and the tunnel device, e.g. flannel.1,"
                    + " vxlan.calico, cilium_vxlan, with their mtu)");
        }
        checks.add("ping -M do -s " + (packet - 28) + " " + (lost == e.server() ? f.client().address() : f.target().address())
                + "   (from the sender's pod: a " + packet + "-byte packet with DF set)");
        return new Explanation(story, obs, checks, List.of(
                new Explanation.Remedy("set the CNI's MTU to the underlay's MTU less the tunnel's overhead (VXLAN: 50 bytes"
                        + " over IPv4, 70 over IPv6) and restart the pods", "a smaller MTU costs a little throughput",
                        "overlay-mtu-mismatch"),
                new Explanation.Remedy("let ICMP type 3 code 4 (ICMPv6 type 2) through the nodes' and the path's firewalls",
                        "none: RFC 4890 4.3.1 says never to filter them", "frag-needed-blocked"),
                new Explanation.Remedy("clamp TCP's MSS to the path MTU: iptables -t mangle -A FORWARD -p tcp --tcp-flags"
                        + " SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu", "TCP only: large UDP datagrams still black-hole"),
                new Explanation.Remedy("sysctl net.ipv4.tcp_mtu_probing=1 on the senders' nodes (RFC 4821)",
                        "the sender finds the MTU only after a timeout: each new path stalls once")));
    }

    private static String mss(Established.Side s) {
        return s.mss() < 0 ? "(none)" : String.valueOf(s.mss());
    }

    /** {@code  (MTU 1450)}, or nothing when the error does not say (a router older than RFC 1191 sends 0). */
    static String mtu(Sighting icmp) {
        return icmp.icmpMtu > 0 ? " (MTU " + icmp.icmpMtu + ")" : "";
    }

    private static String capitalised(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
