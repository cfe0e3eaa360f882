package io.pcapdiag.causes;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.EndpointStatus;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.PodDnsFacts;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The DNS and UDP causes, each confirmed, contradicted and unknown, judged through the whole pipeline. */
class DnsCausesTest {
    static final String CLIENT = "10.244.0.18";
    static final String VIP = "10.96.0.10";
    static final String DNS_POD = "10.244.0.10";
    static final String UPSTREAM = "198.51.100.1";

    private static byte[] udp(String src, int sport, String dst, int dport, byte[] payload) {
        return Ipv4Builder.ipv4(src, dst).payload(17, DnsBuilder.udp(sport, dport, payload)).build();
    }

    private static PacketScript send(PacketScript s, long t, String src, int sport, String dst, int dport, DnsBuilder m) {
        return s.packet(t, udp(src, sport, dst, dport, m.build()), LinkBuilder.MAC_A);
    }

    private static Finding only(PacketScript s, Pattern p) {
        List<Finding> fs = s.findings().stream().filter(f -> f.pattern() == p).toList();
        assertEquals(1, fs.size(), s.findings().toString());
        return fs.get(0);
    }

    /** The client asks the VIP, DNAT sends it to the DNS pod, which asks upstream and answers SERVFAIL. */
    @ParameterizedTest
    @CsvSource({"2, confirmed", "-1, confirmed", "0, contradicted"})
    void dnsUpstreamFailureIsTheDnsPodsOwnQueryFailingInTheCapture(int upstreamRcode, String verdict) {
        PacketScript s = new PacketScript();
        String name = "db.corp.example";
        send(s, 0, CLIENT, 40001, VIP, 53, DnsBuilder.query(7, name, 1));
        send(s, 10_000, CLIENT, 40001, DNS_POD, 53, DnsBuilder.query(7, name, 1));
        send(s, MS, DNS_POD, 50000, UPSTREAM, 53, DnsBuilder.query(99, name, 1));
        if (upstreamRcode >= 0) {
            send(s, 2 * MS, UPSTREAM, 53, DNS_POD, 50000, DnsBuilder.query(99, name, 1).response(upstreamRcode));
        }
        long answerAt = upstreamRcode >= 0 ? 3 * MS : 5 * S + MS;
        send(s, answerAt, VIP, 53, CLIENT, 40001, DnsBuilder.query(7, name, 1).response(2));
        s.packet(12 * S, Ipv4Builder.ipv4("192.0.2.250", "192.0.2.251").payload(253, new byte[8]).build(), LinkBuilder.MAC_A);
        // With a SERVFAIL upstream the DNS pod's own query is a dns-error too: the client's is the one to VIP.
        Finding f = s.findings().stream().filter(x -> x.pattern() == Pattern.DNS_ERROR
                && x.target().toString().equals(VIP + ":53")).findFirst().orElseThrow();
        assertEquals(verdict, RpFilterTest.judged(f, s.analysis().context(), Cause.DNS_UPSTREAM_FAILURE).orElseThrow()
                .verdict().id());
    }

    /** A query DNAT'ed to the DNS pod and never answered: stale when the cluster lists that pod as no ready endpoint. */
    @ParameterizedTest
    @CsvSource({"notListed, confirmed", "notReady, confirmed", "ready, contradicted", "unknown, unknown"})
    void staleUdpConntrackIsADnatToNoReadyEndpoint(String listed, String verdict) {
        Context cluster = new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service) {
                return switch (listed) {
                    case "unknown" -> Optional.empty();
                    case "ready" -> Optional.of(new EndpointStatus(true, new Fact(Source.CLUSTER, "ready")));
                    default -> Optional.of(new EndpointStatus(false, new Fact(Source.CLUSTER, listed)));
                };
            }
        };
        PacketScript s = new PacketScript(List.of(cluster));
        send(s, 0, CLIENT, 40053, VIP, 53, DnsBuilder.query(4098, "web.default.svc.cluster.local", 1));
        send(s, 10_000, CLIENT, 40053, DNS_POD, 53, DnsBuilder.query(4098, "web.default.svc.cluster.local", 1));
        send(s, S, CLIENT, 40053, VIP, 53, DnsBuilder.query(4098, "web.default.svc.cluster.local", 1));
        s.packet(12 * S, Ipv4Builder.ipv4("192.0.2.250", "192.0.2.251").payload(253, new byte[8]).build(), LinkBuilder.MAC_A);
        Finding f = only(s, Pattern.DNS_NO_RESPONSE);
        assertEquals(verdict, RpFilterTest.judged(f, s.analysis().context(), Cause.STALE_UDP_CONNTRACK).orElseThrow()
                .verdict().id());
    }

    /** A name with 2 dots answered after its search list: ndots:5 of a ClusterFirst pod is the cause, ndots:2 is not. */
    @ParameterizedTest
    @CsvSource({"ClusterFirst, -1, confirmed", "ClusterFirst, 2, contradicted", "ClusterFirst, 3, confirmed",
            "Default, -1, contradicted", "none, -1, unknown"})
    void dnsNdotsIsTheClientPodsPolicyAndNdots(String policy, int ndots, String verdict) {
        Context cluster = new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<PodDnsFacts> podDns(Endpoint address) {
                if (policy.equals("none")) {
                    return Optional.empty();
                }
                return Optional.of(new PodDnsFacts(new Ref(Ref.POD, "default", "client", null, "node-a"), policy,
                        ndots < 0 ? OptionalInt.empty() : OptionalInt.of(ndots), List.of(), List.of(),
                        new Fact(Source.CLUSTER, "pod default/client: dnsPolicy " + policy)));
            }
        };
        PacketScript s = new PacketScript(List.of(cluster));
        long t = 0;
        int id = 100;
        for (String suffix : new String[] {".default.svc.cluster.local", ".svc.cluster.local", ".cluster.local"}) {
            send(s, t, CLIENT, 40001, VIP, 53, DnsBuilder.query(id, "api.example.com" + suffix, 1));
            send(s, t + 8 * MS, VIP, 53, CLIENT, 40001, DnsBuilder.query(id, "api.example.com" + suffix, 1).response(3));
            t += 9 * MS;
            id++;
        }
        send(s, t, CLIENT, 40001, VIP, 53, DnsBuilder.query(id, "api.example.com", 1));
        send(s, t + MS, VIP, 53, CLIENT, 40001, DnsBuilder.query(id, "api.example.com", 1).response(0).answerA("192.0.2.7"));
        s.packet(12 * S, Ipv4Builder.ipv4("192.0.2.250", "192.0.2.251").payload(253, new byte[8]).build(), LinkBuilder.MAC_A);
        Finding f = only(s, Pattern.DNS_SEARCH_EXPANSION);
        assertTrue(f.examples().get(0).searchDelayNanos() >= 27 * MS);
        assertEquals(verdict, RpFilterTest.judged(f, s.analysis().context(), Cause.DNS_NDOTS).orElseThrow().verdict().id());
    }

    /** Live keeps ICMP errors, not every datagram: the finding stands on the error alone and says so. */
    @org.junit.jupiter.api.Test
    void aUdpUnreachableKnownFromItsQuoteAloneCitesTheErrorOnly() {
        byte[] dnat = udp(CLIENT, 40001, "10.244.0.19", 8125, new byte[19]);
        PacketScript s = new PacketScript();
        s.packet(0, Ipv4Builder.ipv4("10.244.0.19", CLIENT).icmp(io.pcapdiag.testing.IcmpBuilder.error(3, 3, dnat,
                dnat.length)).build(), LinkBuilder.MAC_A);
        s.packet(12 * S, Ipv4Builder.ipv4("192.0.2.250", "192.0.2.251").payload(253, new byte[8]).build(), LinkBuilder.MAC_A);
        io.pcapdiag.diagnosis.Diagnosis d = s.diagnoses().get(0);
        assertEquals(Pattern.UDP_UNREACHABLE, d.finding().pattern());
        assertEquals(List.of(io.pcapdiag.diagnosis.Role.ICMP), d.evidence().stream().map(e -> e.role()).toList());
        assertTrue(d.explanation().story().get(0).text().contains("not in this capture"), d.explanation().story().toString());
        assertEquals(List.of(), d.path());
    }
}
