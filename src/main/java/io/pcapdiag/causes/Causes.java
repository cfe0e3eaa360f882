package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.rules.Finding;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The cause table of docs/design.md (each row's procedure and the kernel or Kubernetes source it follows are in its
 * "Kernel semantics" table), one class per row: for a finding, every candidate cause of its pattern,
 * judged against the context, confirmed first and contradicted last (table order within a verdict).
 *
 * <pre>
 * cause                        patterns                                  confirmed by
 * etp-local-no-local-endpoint  vip-local-reject, no-response             cluster: ETP Local, no ready endpoint on the node
 * service-no-endpoints         vip-local-reject, no-response,            cluster: no ready endpoint anywhere
 *                              icmp-unreachable, dns-no-response,
 *                              udp-unreachable
 * port-not-in-service          vip-local-reject                          cluster: the address is a Service's, the port none of its
 * bridge-nf-call-off           nat-bypass-reply                          node: bridge-nf-call-ip(6)tables 0, or no br_netfilter
 * hairpin-mode-off             hairpin-self                              node: hairpin mode 0 on the client's bridge port
 * lb-vip-bound-locally         lb-probe-dropped                          node: the source is a local address, accept_local
 *                                                                        off; cluster: LB IP without ipMode Proxy, IPVS mode
 * network-policy               no-response, policy-reject,               cluster: a policy selects the target, none admits
 *                              dns-no-response, udp-unreachable          (UDP: the policy's UDP ports)
 * conntrack-full               no-response, delayed-connect              node: count at max, or drop / early_drop rising
 * conntrack-insert-race        delayed-connect, dns-race-lost,           node: insert_failed rising
 *                              dns-no-response
 * ipvs-conn-reuse              delayed-connect                           kube-proxy ipvs, conn_reuse_mode 1, kernel < 5.9,
 *                                                                        a ~1 s gap
 * rp-filter                    no-response                               node: IPReversePathFilter rising, or the mode in
 *                                                                        force on the ingress device (max of all and its
 *                                                                        own) drops it against the route back
 * stale-udp-conntrack          dns-no-response, udp-unreachable          cluster: the capture's DNAT'ed copy went to an
 *                                                                        address that is no ready endpoint of the Service
 * dns-upstream-failure         dns-error                                 capture: the DNS pod's own queries failed
 * dns-ndots                    dns-search-expansion                      cluster: the client pod is ClusterFirst, its ndots
 *                                                                        (5 unless dnsConfig sets it) above the name's dots
 * overlay-mtu-mismatch         pmtu-blackhole                            node (the sender's): the MTU of the interface the
 *                                                                        lost segment was first seen on exceeds the tunnel
 *                                                                        device's, or with the tunnel's overhead (VXLAN 50
 *                                                                        over IPv4, 70 over IPv6) the underlay's
 * frag-needed-blocked          pmtu-blackhole                            capture: ICMP frag-needed / packet too big quoting
 *                                                                        the lost side seen on the node, never where the
 *                                                                        lost segment was first seen
 * conntrack-invalid-accepted   reset-after-reply                         node (the client's): no rule of its family drops
 *                                                                        conntrack INVALID (nf_conntrack_tcp_be_liberal
 *                                                                        stated beside)
 * endpoint-terminated          reset-by-gone-endpoint                    cluster: the backend (DNAT'ed copy, or the dialed
 *                                                                        pod) is terminating or in no EndpointSlice of the
 *                                                                        Service
 * </pre>
 */
public final class Causes {
    private static final List<CauseRule> TABLE = List.of(new EtpLocalNoLocalEndpoint(), new ServiceNoEndpoints(),
            new PortNotInService(), new BridgeNfCallOff(), new HairpinModeOff(), new LbVipBoundLocally(),
            new NetworkPolicy(), new ConntrackFull(), new ConntrackInsertRace(), new IpvsConnReuse(), new RpFilter(),
            new StaleUdpConntrack(), new DnsUpstreamFailure(), new DnsNdots(), new OverlayMtuMismatch(),
            new FragNeededBlocked(), new ConntrackInvalidAccepted(), new EndpointTerminated());

    private Causes() {
    }

    /** Adds the reading's fact, if there is a reading. */
    static void addFact(List<Fact> facts, Optional<Reading> r) {
        r.map(Reading::fact).ifPresent(facts::add);
    }

    /** The finding's candidate causes, judged and ranked; empty for patterns without any. */
    public static List<CauseVerdict> judge(Finding f, Context context) {
        return TABLE.stream().filter(r -> r.patterns().contains(f.pattern()) && r.applies(f)).map(r -> r.judge(f, context))
                .sorted(Comparator.comparing(CauseVerdict::verdict)).toList();
    }
}
