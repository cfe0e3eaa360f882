package io.pcapdiag.rules;

import io.pcapdiag.decode.Ip;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns a finding into an {@link Explanation}: plain text from the finding's own addresses and evidence. */
public final class Explain {
    private Explain() {
    }

    public static Explanation of(Finding f) {
        return switch (f.pattern()) {
            case VIP_LOCAL_REJECT -> vipLocalReject(f);
            case NAT_BYPASS_REPLY -> natBypass(f);
            case LB_PROBE_DROPPED -> lbProbe(f);
            case CONNECTION_REFUSED -> refused(f);
            case ICMP_UNREACHABLE -> icmpUnreachable(f);
            case NO_RESPONSE -> noResponse(f);
        };
    }

    private static Explanation vipLocalReject(Finding f) {
        Attempt a = f.examples().get(0);
        Sighting icmp = a.icmp();
        String vip = f.target().address();
        String happened = f.client() + " dialed " + f.target() + " and got ICMP port unreachable from " + vip
                + " itself. A TCP host with nothing on a port answers RST, never ICMP: a packet filter or IPVS"
                + " on this node answered on the VIP's behalf. kube-proxy in IPVS mode binds every LoadBalancer and"
                + " external IP to kube-ipvs0, so a pod's connection to " + vip + " never leaves the node; with"
                + " externalTrafficPolicy: Local and no ready endpoint on this node the virtual server has no real"
                + " server and the SYN is rejected (curl: \"connection refused\").";
        List<String> obs = new ArrayList<>();
        int ttl = icmp.ttl;
        String hop = icmp.ipVersion == 6 ? "hop limit" : "TTL";
        obs.add(Rules.zeroHops(ttl)
                ? "reply " + hop + " " + ttl + " is an initial value: the ICMP was generated 0 hops away, on this node"
                : "reply " + hop + " " + ttl + " is not an initial value (64/255): it crossed routers, so it was probably not generated on this node");
        long rtt = a.rttNanos();
        obs.add(Rules.subMillisecond(rtt)
                ? "answered " + millis(rtt) + " after the SYN: too fast for a remote host, consistent with this node answering"
                : "answered " + millis(rtt) + " after the SYN: slower than a local answer would be");
        return new Explanation(happened, obs, List.of(
                new Explanation.Remedy("set externalTrafficPolicy: Cluster on the Service",
                        "every node forwards to any endpoint; backends see the node's address instead of the client's, and some traffic takes an extra hop"),
                new Explanation.Remedy("run the ingress as a DaemonSet so every node has a local endpoint",
                        "keeps the client source IP and ETP Local; one replica per node, and load spreads per node rather than per pod"),
                new Explanation.Remedy("from inside the cluster, dial the Service name (<svc>.<namespace>.svc) instead of the LB IP",
                        "traffic stays in the cluster and is balanced over all endpoints; clients need in-cluster configuration or split-horizon DNS"),
                new Explanation.Remedy("set status.loadBalancer.ingress[].ipMode: Proxy (Kubernetes 1.30+) so kube-proxy does not bind the LB IP",
                        "in-cluster traffic to the LB IP goes out through the cloud load balancer: more latency and LB traffic; the cloud provider must set it")));
    }

    private static Explanation natBypass(Finding f) {
        Attempt a = f.examples().get(0);
        Sighting synAck = a.otherSynAck();
        StringBuilder happened = new StringBuilder();
        happened.append(f.client()).append(" dialed ").append(f.target()).append("; DNAT sent the SYN to ")
                .append(f.responder()).append(" but its SYN-ACK reached the client straight from ")
                .append(f.responder()).append(", not from ").append(f.target())
                .append(". The reply bypassed conntrack's reverse NAT, so the client's kernel had no socket for ")
                .append(f.responder()).append(", answered RST and retransmitted the SYN. This is a same-node Pod to")
                .append(" Service call: the backend sits on the same bridge, its reply is switched at layer 2, and")
                .append(" unless bridge netfilter passes bridged IP traffic to iptables (bridge-nf-call-iptables=1)")
                .append(" conntrack never sees it.");
        List<String> obs = new ArrayList<>();
        if (a.natCopy() != null) {
            obs.add("the SYN was seen again after DNAT, to " + a.natCopy().destination());
        }
        if (f.clientResets() > 0) {
            obs.add("the client reset the unexpected SYN-ACK in " + f.clientResets() + " of " + f.attempts() + " attempts");
        }
        if (f.retransmissions() > 0) {
            obs.add("the client retransmitted its SYN " + f.retransmissions() + " times");
        }
        if (synAck.hasSrcMac) {
            String mac = "the SYN-ACK came from MAC " + Ip.mac(synAck.srcMac) + ", " + f.responder().address() + "'s own";
            if (a.syn().hasDstMac) {
                mac += "; the SYN went to MAC " + Ip.mac(a.syn().dstMac) + " (the gateway)";
            }
            obs.add(mac);
        }
        boolean v6 = !f.client().isV4();
        return new Explanation(happened.toString(), obs, List.of(
                new Explanation.Remedy("load br_netfilter and set net.bridge.bridge-nf-call-" + (v6 ? "ip6tables" : "iptables")
                        + "=1 on every node (kubeadm's preflight checks it)",
                        "bridged traffic then traverses iptables: a small CPU cost on every bridged packet"),
                new Explanation.Remedy("enable hairpin mode on the bridge ports (kubelet --hairpin-mode=hairpin-veth, CNI bridge plugin hairpinMode: true)",
                        "needed as well when a pod reaches itself through its own Service"),
                new Explanation.Remedy("set kube-proxy masqueradeAll: true",
                        "every Service connection is SNAT'ed, so backends no longer see the client pod's IP")));
    }

    private static Explanation lbProbe(Finding f) {
        String happened = f.client() + " sent " + f.attempts() + " connection attempts from " + f.distinctClientPorts()
                + " source ports to " + f.target() + " and none was answered, while " + f.target()
                + " is alive for others. This is the signature of a load balancer's health probe sourced from its own VIP:"
                + " kube-proxy (IPVS) bound " + f.client().address() + " to kube-ipvs0, so a packet arriving from outside with"
                + " that source address is a martian (its source is a local address) and the kernel drops it before TCP sees"
                + " it. The load balancer then marks every node unhealthy.";
        List<String> obs = new ArrayList<>();
        if (f.retransmissions() > 0) {
            obs.add("the probes were retransmitted " + f.retransmissions() + " times without any answer");
        }
        obs.add("check on the node: ip addr show kube-ipvs0 | grep " + f.client().address()
                + "; with net.ipv4.conf.all.log_martians=1 the kernel logs the drops");
        return new Explanation(happened, obs, List.of(
                new Explanation.Remedy("set status.loadBalancer.ingress[].ipMode: Proxy (Kubernetes 1.30+) for the Service",
                        "kube-proxy no longer binds the LB IP; in-cluster traffic to that IP goes through the load balancer"),
                new Explanation.Remedy("run a kube-proxy that does not bind the LB IP locally (iptables or nftables mode, or a version/setting that leaves it off kube-ipvs0)",
                        "leaving IPVS gives up its schedulers; test the change on one node pool first")));
    }

    private static Explanation refused(Finding f) {
        boolean fromTarget = f.responder() != null && f.responder().equals(f.target());
        String happened = fromTarget
                ? f.target() + " answered the SYN from " + f.client() + " with RST: nothing listens on port "
                        + f.target().port() + " there, or the process listens on another address (127.0.0.1 instead of 0.0.0.0)."
                : f.client() + " dialed " + f.target() + " and the RST came from " + f.responder()
                        + ": the connection was DNAT'ed to a backend where nothing listens on port " + f.responder().port()
                        + " (a Service targetPort that does not match the container port).";
        return new Explanation(happened, List.of(), List.of(
                new Explanation.Remedy("check the Service's targetPort against the container's port and that the server binds 0.0.0.0 / ::",
                        "kubectl get svc,endpointslices -o wide shows where the port is sent"),
                new Explanation.Remedy("if the server is still starting, gate traffic with a readiness probe",
                        "a pod that is not ready is taken out of the endpoints until it listens")));
    }

    private static Explanation icmpUnreachable(Finding f) {
        Sighting icmp = f.examples().get(0).icmp();
        String what = icmpName(icmp.ipVersion, icmp.icmpType, icmp.icmpCode);
        String happened = f.client() + " dialed " + f.target() + " and " + f.responder() + " answered with ICMP " + what + ".";
        boolean portUnreach = icmp.ipVersion == 4 ? icmp.icmpType == 3 && icmp.icmpCode == 3 : icmp.icmpType == 1 && icmp.icmpCode == 4;
        List<Explanation.Remedy> fixes;
        if (portUnreach) {
            happened += " A port unreachable for TCP from an address other than the one dialed comes from a REJECT rule on the"
                    + " path: kube-proxy in iptables mode rejects connections to a Service that has no endpoints this way.";
            fixes = List.of(
                    new Explanation.Remedy("check that the Service has ready endpoints: kubectl get endpointslices -l kubernetes.io/service-name=<svc>",
                            "a Service whose pods are all unready is rejected by design, until one is ready"),
                    new Explanation.Remedy("on " + f.responder() + ", look for the rule: iptables-save | grep -e REJECT -e " + f.target().address(),
                            null));
        } else if (isAdminProhibited(icmp)) {
            happened += " A filter on the path rejected it: a NetworkPolicy or firewall REJECT rule.";
            fixes = List.of(new Explanation.Remedy("check NetworkPolicies and node firewalls between " + f.client() + " and " + f.target(),
                    "a default-deny policy rejects until an allow rule matches"));
        } else {
            happened += " Something on the path has no way to deliver it: a missing route, or a host that does not answer ARP/ND.";
            fixes = List.of(new Explanation.Remedy("check routes and neighbours for " + f.target().address() + " on " + f.responder()
                    + ": ip route get " + f.target().address() + "; ip neigh", null));
        }
        return new Explanation(happened, List.of(), fixes);
    }

    private static Explanation noResponse(Finding f) {
        Attempt a = f.examples().get(0);
        String happened = f.client() + " sent SYNs to " + f.target() + " (" + f.attempts() + " attempts, "
                + f.retransmissions() + " retransmissions) and "
                + (f.cutQuotes() > 0 ? "no answer in this capture can be paired with them."
                        : "nothing came back in this capture: the SYN or its answer was dropped somewhere.");
        List<String> obs = new ArrayList<>();
        if (a.natCopy() != null) {
            obs.add("the SYN was DNAT'ed to " + a.natCopy().destination() + " but no reply was captured; a capture on the"
                    + " bridge misses replies switched between its ports: record with -i any or on the pod's veth");
        }
        if (f.cutQuotes() > 0) {
            obs.add("ICMP errors addressed to " + f.client() + " were captured (" + f.cutQuotes()
                    + (f.cutQuotes() == 1 ? " packet" : " packets") + ") but cannot be paired with a SYN: the capture's"
                    + " snap length cut the packet they quote; record with a larger snap length (tcpdump -s 0) to see"
                    + " which connection they answer");
        }
        return new Explanation(happened, obs, List.of(
                new Explanation.Remedy("with externalTrafficPolicy: Local in iptables mode, traffic to a node without a local endpoint is dropped: check endpoints per node",
                        "ETP Cluster forwards instead, at the cost of the client source IP"),
                new Explanation.Remedy("check NetworkPolicies (default deny drops), node firewalls and cloud security groups",
                        null)));
    }

    private static boolean isAdminProhibited(Sighting s) {
        return s.ipVersion == 4 ? s.icmpType == 3 && (s.icmpCode == 9 || s.icmpCode == 10 || s.icmpCode == 13)
                : s.icmpType == 1 && s.icmpCode == 1;
    }

    /** The names tcpdump prints for ICMP and ICMPv6 errors. */
    public static String icmpName(int ipVersion, int type, int code) {
        if (ipVersion == 4) {
            if (type == 3) {
                return switch (code) {
                    case 0 -> "net unreachable";
                    case 1 -> "host unreachable";
                    case 2 -> "protocol unreachable";
                    case 3 -> "port unreachable";
                    case 4 -> "fragmentation needed";
                    case 9, 10 -> "host administratively prohibited";
                    case 13 -> "communication administratively prohibited";
                    default -> "destination unreachable (code " + code + ")";
                };
            }
            return type == 11 ? "time exceeded" : type == 12 ? "parameter problem" : "type " + type + " code " + code;
        }
        if (type == 1) {
            return switch (code) {
                case 0 -> "unreachable route";
                case 1 -> "unreachable prohibited";
                case 3 -> "unreachable address";
                case 4 -> "unreachable port";
                case 5 -> "source address failed policy";
                case 6 -> "reject route";
                default -> "destination unreachable (code " + code + ")";
            };
        }
        return type == 3 ? "time exceeded" : type == 4 ? "parameter problem" : "type " + type + " code " + code;
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
