package io.pcapdiag.causes;

import static io.pcapdiag.causes.ConnectionScript.CLIENT;
import static io.pcapdiag.causes.ConnectionScript.CLIENT_ISN;
import static io.pcapdiag.causes.ConnectionScript.CLIENT_PORT;
import static io.pcapdiag.causes.ConnectionScript.SERVER_ISN;
import static io.pcapdiag.testing.PacketScript.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.TcpBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code conntrack-invalid-accepted} on the lab's reset-after-reply context (captures/README.md: node A's facts list no
 * INVALID drop rule and nf_conntrack_tcp_be_liberal 0; {@code contradicted/} lists kube-proxy's rule and be_liberal 1),
 * and on those facts changed. The connection is node A's {@code -i any}: pod A dials 10.96.70.70:8080 on veth-a
 * (ifindex 4), DNAT'ed to pod C 10.244.1.20:80 leaving on flannel.1 (5); at 2.5 s a segment from pod C's own address
 * reaches veth-a and pod A resets it.
 */
class ConntrackInvalidAcceptedTest {
    private static final String DIR = "captures/reset-after-reply/";
    static final String VIP = "10.96.70.70";
    static final String BACKEND = "10.244.1.20";

    /** The handshake through the Service, DNAT'ed on the node, and a request and an answer (ifIndex -1: pod A's eth0). */
    static ConnectionScript throughService(List<Context> context, int clientIf) {
        ConnectionScript c = new ConnectionScript(context);
        int ack = TcpBuilder.ACK;
        c.seg(0, clientIf, CLIENT, CLIENT_PORT, VIP, 8080, CLIENT_ISN, 0, TcpBuilder.SYN, 0);
        if (clientIf >= 0) {
            c.seg(MS / 10, 5, CLIENT, CLIENT_PORT, BACKEND, 80, CLIENT_ISN, 0, TcpBuilder.SYN, 0);
            c.seg(MS, 5, BACKEND, 80, CLIENT, CLIENT_PORT, SERVER_ISN, CLIENT_ISN + 1, TcpBuilder.SYN | ack, 0);
        }
        c.seg(MS + MS / 10, clientIf, VIP, 8080, CLIENT, CLIENT_PORT, SERVER_ISN, CLIENT_ISN + 1, TcpBuilder.SYN | ack, 0);
        c.seg(2 * MS, clientIf, CLIENT, CLIENT_PORT, VIP, 8080, CLIENT_ISN + 1, SERVER_ISN + 1, ack, 0);
        c.seg(3 * MS, clientIf, CLIENT, CLIENT_PORT, VIP, 8080, CLIENT_ISN + 1, SERVER_ISN + 1, ack | TcpBuilder.PSH, 53);
        c.seg(4 * MS, clientIf, VIP, 8080, CLIENT, CLIENT_PORT, SERVER_ISN + 1, CLIENT_ISN + 54, ack | TcpBuilder.PSH, 200);
        c.seg(5 * MS, clientIf, CLIENT, CLIENT_PORT, VIP, 8080, CLIENT_ISN + 54, SERVER_ISN + 201, ack, 0);
        return c;
    }

    /** reset-after-reply: the next chunk arrives from pod C's own address and pod A resets it. */
    static Finding resetAfterReply(List<Context> context) {
        ConnectionScript c = throughService(context, 4);
        c.seg(2508 * MS, 4, BACKEND, 80, CLIENT, CLIENT_PORT, SERVER_ISN + 201, CLIENT_ISN + 54, TcpBuilder.ACK, 200);
        c.seg(2508 * MS + MS / 10, 4, CLIENT, CLIENT_PORT, BACKEND, 80, CLIENT_ISN + 54, 0, TcpBuilder.RST, 0);
        return c.only(Pattern.RESET_AFTER_REPLY);
    }

    private static CauseVerdict judged(String facts, Consumer<ObjectNode> change, boolean cluster) {
        List<Context> context = new ArrayList<>();
        if (cluster) {
            context.add(LabContext.cluster(DIR + "cluster.json"));
        }
        if (facts != null) {
            context.add(LabContext.node(DIR + facts, change));
        }
        Finding f = resetAfterReply(context);
        return RpFilterTest.judged(f, Context.of(context), Cause.CONNTRACK_INVALID_ACCEPTED).orElseThrow();
    }

    private static List<String> texts(CauseVerdict v) {
        return v.facts().stream().map(Fact::text).toList();
    }

    @Test
    void confirmedByNodeAWithoutAnInvalidDropRule() {
        CauseVerdict v = judged("node-facts.json", d -> { }, true);
        assertEquals(Verdict.CONFIRMED, v.verdict(), texts(v).toString());
        assertEquals(List.of("no firewall rule of pdlab-node drops what conntrack marks INVALID (conntrack_invalid_drop_rules:"
                + " none in iptables-save, ip6tables-save or nft list ruleset)",
                "net.netfilter.nf_conntrack_tcp_be_liberal = 0 on pdlab-node"), texts(v));
        assertTrue(v.fix().get(0).startsWith("iptables -I FORWARD -m conntrack --ctstate INVALID -j DROP   (on pdlab-node:"),
                v.fix().get(0));
    }

    @Test
    void contradictedByKubeProxysRule() {
        CauseVerdict v = judged("contradicted/node-facts.json", d -> { }, true);
        assertEquals(Verdict.CONTRADICTED, v.verdict(), texts(v).toString());
        assertEquals("pdlab-node drops what conntrack marks INVALID (IPv4): iptables-save: -A FORWARD -m conntrack --ctstate"
                + " INVALID -m comment --comment \"kubernetes forwarding conntrack rule\" -j DROP", texts(v).get(0));
        assertEquals("net.netfilter.nf_conntrack_tcp_be_liberal = 1 on pdlab-node", texts(v).get(1));
    }

    @Test
    void unknownWhenTheRulesAreUnknownOrAnotherNodesOrWithoutNodeFacts() {
        assertEquals(Verdict.UNKNOWN, judged("node-facts.json", d -> d.putObject("conntrack_invalid_drop_rules")
                .put("unknown", "nft: not on PATH"), true).verdict());
        // Node B's facts: the cluster puts pod A, whose node DNAT'ed the connection, on pdlab-node.
        assertEquals(Verdict.UNKNOWN, judged("node-b-facts.json", d -> { }, true).verdict());
        assertEquals(Verdict.UNKNOWN, judged(null, d -> { }, true).verdict());
    }

    @Test
    void aRuleOfTheOtherFamilyDoesNotDropIt() {
        // ip6tables sees no IPv4 packet: with only its rule listed, whether an IPv4 one exists is unknown (only rules
        // found are listed); an nftables inet table sees both families.
        assertEquals(Verdict.UNKNOWN, judged("node-facts.json", d -> d.putArray("conntrack_invalid_drop_rules")
                .add("ip6tables-save: -A FORWARD -m conntrack --ctstate INVALID -j DROP"), true).verdict());
        CauseVerdict inet = judged("node-facts.json", d -> d.putArray("conntrack_invalid_drop_rules")
                .add("ip6tables-save: -A FORWARD -m conntrack --ctstate INVALID -j DROP")
                .add("nft: table inet filter chain forward: ct state invalid drop"), true);
        assertEquals(Verdict.CONTRADICTED, inet.verdict());
        assertEquals("pdlab-node drops what conntrack marks INVALID (IPv4): nft: table inet filter chain forward: ct state"
                + " invalid drop", texts(inet).get(0));
    }
}
