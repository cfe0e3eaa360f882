package io.pcapdiag.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The sysctls that decide what Kubernetes service networking does to a packet, read from /proc/sys (which follows
 * the reader's network namespace). Keys are sysctl(8) names; an interface name containing dots is written with
 * slashes, as sysctl(8) takes it ({@code net.ipv4.conf.eth0/100.rp_filter}).
 */
final class Sysctls {
    /** Read as they are, when they exist. */
    static final List<String> FIXED = List.of(
            // br_netfilter: whether bridged IPv4/IPv6/ARP frames traverse iptables (and so conntrack's reverse NAT).
            "net.bridge.bridge-nf-call-arptables", "net.bridge.bridge-nf-call-ip6tables", "net.bridge.bridge-nf-call-iptables",
            "net.ipv4.ip_forward", "net.ipv6.conf.all.forwarding",
            // The source ports SNAT and clients choose from: a small range makes conntrack insert clashes likelier.
            "net.ipv4.ip_local_port_range",
            "net.netfilter.nf_conntrack_buckets", "net.netfilter.nf_conntrack_count", "net.netfilter.nf_conntrack_max",
            "net.netfilter.nf_conntrack_tcp_be_liberal", "net.netfilter.nf_conntrack_tcp_loose");

    /**
     * Per net.ipv4.conf.{all,default,IFACE}: rp_filter and accept_local decide whether a packet from a source the
     * node holds itself (an LB VIP on kube-ipvs0) or from an unexpected interface is dropped as a martian;
     * log_martians whether that is logged; route_localnet whether 127/8 may be routed (kube-proxy NodePorts on
     * localhost).
     */
    static final List<String> PER_INTERFACE = List.of("accept_local", "log_martians", "route_localnet", "rp_filter");

    private Sysctls() {
    }

    static SortedMap<String, OrUnknown<String>> read(Path procSys) {
        SortedMap<String, OrUnknown<String>> out = new TreeMap<>();
        for (String name : FIXED) {
            out.put(name, read(procSys, name));
        }
        Path conf = procSys.resolve("net/ipv4/conf");
        try (Stream<Path> s = Files.list(conf)) {
            for (Path dir : (Iterable<Path>) s.sorted()::iterator) {
                String iface = dir.getFileName().toString().replace('.', '/');
                for (String key : PER_INTERFACE) {
                    String name = "net.ipv4.conf." + iface + "." + key;
                    out.put(name, value(dir.resolve(key)));
                }
            }
        } catch (IOException e) {
            for (String key : PER_INTERFACE) {
                out.put("net.ipv4.conf.all." + key, OrUnknown.unknown(Reasons.of(conf, e)));
            }
        }
        // IPVS's sysctls exist only while ip_vs is loaded: every one of them, conn_reuse_mode above all.
        Path vs = procSys.resolve("net/ipv4/vs");
        if (Files.isDirectory(vs)) {
            try (Stream<Path> s = Files.list(vs)) {
                for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                    if (Files.isRegularFile(p)) {
                        out.put("net.ipv4.vs." + p.getFileName(), value(p));
                    }
                }
            } catch (IOException e) {
                out.put("net.ipv4.vs.conn_reuse_mode", OrUnknown.unknown(Reasons.of(vs, e)));
            }
        } else {
            out.put("net.ipv4.vs.conn_reuse_mode", OrUnknown.unknown("ip_vs is not loaded: no " + vs));
        }
        return out;
    }

    /** {@code /proc/sys/net/bridge} exists while br_netfilter is loaded (it registers the bridge sysctls per namespace). */
    static OrUnknown<Boolean> brNetfilterLoaded(Path procSys) {
        Path net = procSys.resolve("net");
        if (!Files.isDirectory(net)) {
            return OrUnknown.unknown("no " + net);
        }
        return OrUnknown.known(Files.isDirectory(procSys.resolve("net/bridge")));
    }

    private static OrUnknown<String> read(Path procSys, String name) {
        Path p = procSys.resolve(toPath(name));
        OrUnknown<String> v = value(p);
        if (v.isKnown() || Files.exists(p)) {
            return v;
        }
        if (name.startsWith("net.bridge.") && !Files.isDirectory(procSys.resolve("net/bridge"))) {
            return OrUnknown.unknown("br_netfilter is not loaded: no " + procSys.resolve("net/bridge"));
        }
        if (name.startsWith("net.netfilter.nf_conntrack") && !Files.exists(procSys.resolve("net/netfilter/nf_conntrack_max"))) {
            return OrUnknown.unknown("nf_conntrack is not loaded: no " + procSys.resolve("net/netfilter/nf_conntrack_max"));
        }
        return v;
    }

    /** net.ipv4.conf.eth0/100.rp_filter to net/ipv4/conf/eth0.100/rp_filter. */
    static String toPath(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (char c : name.toCharArray()) {
            sb.append(c == '.' ? '/' : c == '/' ? '.' : c);
        }
        return sb.toString();
    }

    /** The value with runs of blanks made one space ({@code ip_local_port_range} is tab-separated). */
    private static OrUnknown<String> value(Path p) {
        return ProcFiles.fact(p).map(v -> v.replaceAll("\\s+", " "));
    }
}
