package io.pcapdiag.causes;

import static io.pcapdiag.causes.ConnectionScript.CLIENT;
import static io.pcapdiag.causes.ConnectionScript.CLIENT_ISN;
import static io.pcapdiag.causes.ConnectionScript.CLIENT_PORT;
import static io.pcapdiag.causes.ConnectionScript.SERVER_ISN;
import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.context.Context;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.Addresses;
import io.pcapdiag.testing.Frames;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code frag-needed-blocked} from the capture alone, on node B's view of the lab's pmtu-blackhole: pod C's 1500-byte
 * segment leaves veth-c (ifindex 4); node B answers it with ICMP "fragmentation needed" (MTU 1450) from cni0's address,
 * captured leaving cni0 (3) for pod C and, unless dropped, on veth-c. The ICMP copies are decoded from real packets; the
 * MTU they state is put in the view where this branch's decoder does not read it yet (Sighting.icmpMtu).
 */
class FragNeededBlockedTest {
    private static final String SERVER = "10.244.1.20";
    private static final Context NODE_B = LabContext.node("captures/pmtu-blackhole/node-b-facts.json");

    private static Finding blackhole() {
        return ConnectionScript.blackhole(List.of(), 5, 4, SERVER).only(Pattern.PMTU_BLACKHOLE);
    }

    /** Pod C's full-size segment, as the ICMP quotes it (548 bytes: as much as fits in 576). */
    private static byte[] lostSegment() {
        return Ipv4Builder.ipv4(SERVER, CLIENT).dontFragment(true).tcp(TcpBuilder.tcp(80, CLIENT_PORT).seq(SERVER_ISN + 84)
                .ack(CLIENT_ISN + 54).flags(TcpBuilder.ACK).payload(new byte[1448])).build();
    }

    /** Pod A's segment to pod C, for an ICMP that quotes the other direction. */
    private static byte[] clientSegment() {
        return Ipv4Builder.ipv4(CLIENT, SERVER).dontFragment(true).tcp(TcpBuilder.tcp(CLIENT_PORT, 80).seq(CLIENT_ISN + 54)
                .ack(SERVER_ISN + 84).flags(TcpBuilder.ACK).payload(new byte[1448])).build();
    }

    /** A copy of node B's ICMP "fragmentation needed" (MTU 1450) to {@code to}, quoting {@code quoted}, on {@code ifIndex}. */
    private static Sighting icmp(long frame, int ifIndex, int packetType, String to, byte[] quoted) {
        byte[] ip = Ipv4Builder.ipv4("10.244.1.1", to).icmp(IcmpBuilder.message(IcmpBuilder.V4_UNREACHABLE, 4, 1450,
                Arrays.copyOf(quoted, 548))).build();
        Frame f = Frames.frame(LinkBuilder.LINKTYPE_LINUX_SLL2, LinkBuilder.sll2(LinkBuilder.ethertypeOf(ip), ifIndex,
                LinkBuilder.ARPHRD_ETHER, packetType, Addresses.macBytes(LinkBuilder.MAC_B), ip), T0 + 7 * MS, null);
        f.number = frame;
        PacketView v = new PacketView();
        new Decoder().decode(f, v);
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        if (v.icmpMtu < 0) {
            v.icmpMtu = 1450; // the decoder that reads it is on its way (see the class comment)
        }
        return new Sighting(f, v);
    }

    private static Sighting toPod(long frame, int ifIndex) {
        return icmp(frame, ifIndex, LinkBuilder.PACKET_OUTGOING, SERVER, lostSegment());
    }

    private static Sighting first(Finding f) {
        return f.examples().get(0).established().lost().lostSends().get(0);
    }

    @Test
    void confirmedWhenCapturedOnCni0AndNeverOnThePodsVeth() {
        Finding f = blackhole();
        CauseVerdict v = FragNeededBlocked.verdict(first(f), List.of(toPod(100, 3), toPod(101, 3)), NODE_B);
        assertEquals(Verdict.CONFIRMED, v.verdict(), v.facts().toString());
        assertEquals("ICMP \"fragmentation needed\" (MTU 1450) from 10.244.1.1 to 10.244.1.20, quoting the lost segments, was"
                + " captured on cni0 (#100, #101), and never on veth-c, where the lost segment was first seen (#7): it did"
                + " not reach the sender", v.facts().get(0).text());
        assertTrue(v.fix().get(0).startsWith("iptables -I OUTPUT -p icmp --icmp-type fragmentation-needed -j ACCEPT   (on"
                + " pdlab-node-b; the node sends it itself, from 10.244.1.1 on cni0; this loosens"), v.fix().get(0));
    }

    @Test
    void contradictedWhenItReachedThePodsVeth() {
        Finding f = blackhole();
        CauseVerdict v = FragNeededBlocked.verdict(first(f), List.of(toPod(100, 3), toPod(101, 4)), NODE_B);
        assertEquals(Verdict.CONTRADICTED, v.verdict(), v.facts().toString());
        assertTrue(v.facts().get(0).text().contains("reached the sender's side: it was captured on veth-c (#101), where the"
                + " lost segment was first seen (#7)"), v.facts().get(0).text());
    }

    @Test
    void unknownWhenNoneWasCaptured() {
        Finding f = blackhole();
        assertEquals(Verdict.UNKNOWN, FragNeededBlocked.verdict(first(f), List.of(), NODE_B).verdict());
        // The whole cause, on a capture without such ICMP: the same.
        assertEquals(Verdict.UNKNOWN, RpFilterTest.judged(f, NODE_B, Cause.FRAG_NEEDED_BLOCKED).orElseThrow().verdict());
    }

    @Test
    void consistentWhenTheCaptureDoesNotShowTheSendersSide() {
        // The lost segment first seen inside the tunnel: the sender's own interface is on another node.
        Finding f = blackhole();
        Sighting seen = first(f);
        byte[] ip = lostSegment();
        Frame fr = Frames.frame(LinkBuilder.LINKTYPE_LINUX_SLL2, LinkBuilder.sll2(LinkBuilder.ethertypeOf(ip), 2,
                LinkBuilder.ARPHRD_ETHER, LinkBuilder.PACKET_HOST, Addresses.macBytes(LinkBuilder.MAC_B), ip), seen.nanos, null);
        fr.number = seen.frame;
        PacketView v = new PacketView();
        new Decoder().decode(fr, v);
        v.tunnelType = PacketView.TUNNEL_VXLAN;
        CauseVerdict verdict = FragNeededBlocked.verdict(new Sighting(fr, v), List.of(toPod(100, 3)), NODE_B);
        assertEquals(Verdict.CONSISTENT, verdict.verdict(), verdict.facts().toString());
        assertTrue(verdict.facts().get(0).text().contains("the lost segment was first seen inside a tunnel on eth0 (#7)"),
                verdict.facts().get(0).text());
    }

    @Test
    void onlyErrorsQuotingTheLostSideCount() {
        Finding f = blackhole();
        Attempt a = f.examples().get(0);
        assertTrue(FragNeededBlocked.quotesLostSide(toPod(100, 3), a, true));
        Sighting aboutClient = icmp(102, 3, LinkBuilder.PACKET_OUTGOING, CLIENT, clientSegment());
        assertFalse(FragNeededBlocked.quotesLostSide(aboutClient, a, true), "it quotes pod A's segment, not pod C's");
        assertTrue(FragNeededBlocked.quotesLostSide(aboutClient, a, false));
    }

    /**
     * Through the whole pipeline: node B's ICMP on cni0 after each of pod C's sends, never on veth-c. Skipped while the
     * decoder does not read the MTU an ICMP "fragmentation needed" states (then the tracker keeps none as such).
     */
    @Test
    void confirmedThroughThePipelineOnceTheDecoderReadsTheMtu() {
        ConnectionScript c = ConnectionScript.blackhole(List.of(), 5, 4, SERVER);
        byte[] icmp = Ipv4Builder.ipv4("10.244.1.1", SERVER).icmp(IcmpBuilder.message(IcmpBuilder.V4_UNREACHABLE, 4, 1450,
                Arrays.copyOf(lostSegment(), 548))).build();
        for (long t : new long[] {6, 215, 635, 1467, 3127}) {
            c.script.packetOn(t * MS + MS / 10, icmp, 3);
        }
        Finding f = c.only(Pattern.PMTU_BLACKHOLE);
        Assumptions.assumeFalse(f.examples().get(0).established().tooBig().isEmpty(),
                "the decoder of this branch does not read the MTU of ICMP \"fragmentation needed\" yet");
        assertEquals(Verdict.CONFIRMED, RpFilterTest.judged(f, NODE_B, Cause.FRAG_NEEDED_BLOCKED).orElseThrow().verdict());
    }
}
