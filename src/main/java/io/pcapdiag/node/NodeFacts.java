package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one node's kernel said at one moment, and the queries the analysis asks of it. Built by {@link Collector},
 * written and read back as the {@code pcapdiag node-facts} document ({@link #write}, {@link #read}).
 *
 * @param nodeNameSource {@code --node}, {@code NODE_NAME} or {@code hostname}
 * @param ipCommand      the {@code ip} command whose output completed sysfs, or why none did (then link kinds
 *                       come from sysfs, addresses from getifaddrs and VXLAN parameters are unknown)
 * @param routesV4       the main table (/proc/net/route)
 * @param routesV6       every table (/proc/net/ipv6_route)
 * @param sysctls        by sysctl(8) name; see {@link Sysctls}
 * @param invalidDropRules the firewall rules that drop what conntrack marks INVALID (kube-proxy's among them), empty
 *                       when there is none; unknown unless one was found or every ruleset was read ({@link InvalidDrop})
 * @param counters       the counters read at collection
 * @param sampleEnd      the counters read again at the end of {@code --sample}, or why there are none
 * @param warnings       what reading the document noticed (a newer schema); empty for a collection
 */
public record NodeFacts(int schemaVersion, OrUnknown<String> nodeName, String nodeNameSource, Instant collectedAt,
                        OrUnknown<String> kernelRelease, OrUnknown<String> ipCommand, OrUnknown<List<NodeInterface>> interfaces,
                        OrUnknown<List<Neighbour>> neighbours, OrUnknown<List<Route>> routesV4, OrUnknown<List<Route>> routesV6,
                        SortedMap<String, OrUnknown<String>> sysctls, OrUnknown<Boolean> brNetfilterLoaded,
                        OrUnknown<String> kubeProxyMode, OrUnknown<List<String>> invalidDropRules, Counters counters,
                        OrUnknown<Counters> sampleEnd, List<String> warnings) {
    /** Bumped when a key changes meaning or disappears; new keys do not bump it. */
    public static final int SCHEMA_VERSION = 1;
    static final String NOT_SAMPLED = "not sampled: node-facts --sample DURATION reads the counters twice";

    public NodeFacts {
        sysctls = Collections.unmodifiableSortedMap(new TreeMap<>(sysctls));
        warnings = List.copyOf(warnings);
    }

    /**
     * Reads a document {@code pcapdiag node-facts} wrote. Keys it does not know are ignored; a newer schema is
     * read as far as it goes and noted in {@link #warnings()}.
     *
     * @throws NodeFactsException with one line naming the file and the JSON path (or byte offset) at fault
     */
    public static NodeFacts read(Path file) throws NodeFactsException {
        return FactsReader.read(file);
    }

    /** Writes the document: snake_case keys in a fixed order, sorted lists and maps, times in UTC. */
    public void write(Writer out) {
        FactsWriter.write(this, out);
    }

    // ---- interfaces

    public Optional<NodeInterface> interfaceByIndex(int ifindex) {
        return interfaces.orElse(List.of()).stream().filter(i -> i.ifindex() == ifindex).findFirst();
    }

    public Optional<NodeInterface> interfaceByName(String name) {
        return interfaces.orElse(List.of()).stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** The name of interface {@code ifindex} (what a SLL2 capture records), if this node has it. */
    public Optional<String> interfaceName(int ifindex) {
        return interfaceByIndex(ifindex).map(NodeInterface::name);
    }

    /** The bridge {@code port} is a port of, or why that is not known. */
    public OrUnknown<NodeInterface> bridgeOf(String port) {
        OrUnknown<NodeInterface> p = known(port);
        if (!p.isKnown()) {
            return p;
        }
        String master = p.value().master();
        if (master == null || p.value().bridgePort() == null) {
            return OrUnknown.unknown(port + " is not a bridge port");
        }
        Optional<NodeInterface> br = interfaceByName(master);
        if (br.isEmpty() || br.get().bridge() == null) {
            return OrUnknown.unknown(port + "'s master " + master + " is not a bridge of this node");
        }
        return OrUnknown.known(br.get());
    }

    /** The hairpin mode (0 or 1) of bridge port {@code port}. */
    public OrUnknown<Integer> hairpinMode(String port) {
        OrUnknown<NodeInterface> p = known(port);
        if (!p.isKnown()) {
            return p.asUnknown();
        }
        NodeInterface.BridgePort bp = p.value().bridgePort();
        return bp == null ? OrUnknown.unknown(port + " is not a bridge port") : bp.hairpinMode();
    }

    /**
     * The bridge port an IPv4 address sits behind: its neighbour entry gives the MAC and the bridge it was resolved
     * on, the bridge's forwarding database the port that MAC was learned on.
     */
    public OrUnknown<NodeInterface> bridgePortBehind(Endpoint address) {
        Endpoint a = address.withoutPort();
        if (!a.isV4()) {
            return OrUnknown.unknown("only IPv4 neighbours are collected (/proc/net/arp)");
        }
        if (!neighbours.isKnown()) {
            return neighbours.asUnknown();
        }
        Neighbour n = neighbours.value().stream().filter(x -> x.address().equals(a) && !x.state().equals("incomplete"))
                .findFirst().orElse(null);
        if (n == null) {
            return OrUnknown.unknown("no resolved neighbour entry for " + a.address());
        }
        Optional<NodeInterface> br = interfaceByName(n.device());
        if (br.isEmpty() || br.get().bridge() == null) {
            return OrUnknown.unknown(a.address() + " is a neighbour on " + n.device() + ", which is not a bridge");
        }
        OrUnknown<List<FdbEntry>> fdb = br.get().bridge().fdb();
        if (!fdb.isKnown()) {
            return fdb.asUnknown();
        }
        for (FdbEntry e : fdb.value()) {
            if (e.mac().equals(n.mac())) {
                if (e.local()) {
                    return OrUnknown.unknown(n.mac() + " of " + a.address() + " is local to " + n.device() + " (a port's own MAC)");
                }
                if (e.port() == null) {
                    return OrUnknown.unknown(n.device() + " forwards " + n.mac() + " to port " + e.portNo() + ", which names no interface");
                }
                return known(e.port());
            }
        }
        return OrUnknown.unknown(n.mac() + " (" + a.address() + ") is not in the forwarding database of " + n.device()
                + " (aged out?)");
    }

    /**
     * Whether {@code address} is assigned to an interface of this node (exact address, as the local routing table
     * has it; a VIP on a down kube-ipvs0 is local too).
     */
    public OrUnknown<Boolean> isLocal(Endpoint address) {
        if (!interfaces.isKnown()) {
            return interfaces.asUnknown();
        }
        if (interfaceHolding(address).isPresent()) {
            return OrUnknown.known(true);
        }
        for (NodeInterface i : interfaces.value()) {
            if (!i.addresses().isKnown()) {
                return OrUnknown.unknown("the addresses of " + i.name() + " are unknown: " + i.addresses().reason());
            }
        }
        return OrUnknown.known(false);
    }

    /** The interface {@code address} is assigned to, if it is known to be one of this node's. */
    public Optional<NodeInterface> interfaceHolding(Endpoint address) {
        Endpoint a = address.withoutPort();
        for (NodeInterface i : interfaces.orElse(List.of())) {
            for (InterfaceAddress x : i.addresses().orElse(List.of())) {
                if (x.address().equals(a)) {
                    return Optional.of(i);
                }
            }
        }
        return Optional.empty();
    }

    private OrUnknown<NodeInterface> known(String name) {
        if (!interfaces.isKnown()) {
            return interfaces.asUnknown();
        }
        return interfaceByName(name).map(OrUnknown::known).orElseGet(() -> OrUnknown.unknown("no interface " + name + " on this node"));
    }

    // ---- sysctls

    /** A sysctl by its sysctl(8) name, as the kernel prints it (runs of blanks as one space). */
    public OrUnknown<String> sysctl(String name) {
        OrUnknown<String> v = sysctls.get(name);
        return v != null ? v : OrUnknown.unknown(name + " was not collected");
    }

    public OrUnknown<Long> sysctlNumber(String name) {
        OrUnknown<String> v = sysctl(name);
        if (!v.isKnown()) {
            return v.asUnknown();
        }
        try {
            return OrUnknown.known(Long.parseLong(v.value()));
        } catch (NumberFormatException e) {
            return OrUnknown.unknown(name + " is '" + v.value() + "', not a number");
        }
    }

    /**
     * Whether bridged IPv4 (or IPv6) traffic on {@code bridge} passes through iptables, which conntrack's reverse NAT
     * of a same-bridge Service reply needs: br_netfilter loaded and either net.bridge.bridge-nf-call-ip(6)tables or the
     * bridge's own nf_call_ip(6)tables on (br_netfilter_hooks.c tests either).
     */
    public OrUnknown<Boolean> bridgeNfCall(String bridge, boolean ipv6) {
        if (!brNetfilterLoaded.isKnown()) {
            return brNetfilterLoaded;
        }
        if (!brNetfilterLoaded.value()) {
            return OrUnknown.known(false);
        }
        OrUnknown<Long> global = sysctlNumber(ipv6 ? "net.bridge.bridge-nf-call-ip6tables" : "net.bridge.bridge-nf-call-iptables");
        if (global.isKnown() && global.value() != 0) {
            return OrUnknown.known(true);
        }
        OrUnknown<NodeInterface> br = known(bridge);
        if (!br.isKnown()) {
            return br.asUnknown();
        }
        if (br.value().bridge() == null) {
            return OrUnknown.unknown(bridge + " is not a bridge");
        }
        OrUnknown<Integer> own = ipv6 ? br.value().bridge().nfCallIp6tables() : br.value().bridge().nfCallIptables();
        if (own.isKnown() && own.value() != 0) {
            return OrUnknown.known(true);
        }
        if (!global.isKnown()) {
            return global.asUnknown();
        }
        return own.isKnown() ? OrUnknown.known(false) : own.asUnknown();
    }

    /**
     * A per-interface IPv4 sysctl, {@code net.ipv4.conf.IFACE.KEY}: an interface whose name holds a dot is written with
     * a slash, as sysctl(8) and {@link Sysctls} write it ({@code eth0.100} is {@code net.ipv4.conf.eth0/100.rp_filter}).
     */
    public OrUnknown<String> interfaceSysctl(String iface, String key) {
        return sysctl(interfaceSysctlKey(iface, key));
    }

    /** The sysctl(8) name of {@code net.ipv4.conf.IFACE.KEY}. */
    public static String interfaceSysctlKey(String iface, String key) {
        return "net.ipv4.conf." + iface.replace('.', '/') + "." + key;
    }

    /**
     * The reverse-path filter in force on {@code iface}: the kernel takes max(conf.all.rp_filter, conf.IFACE.rp_filter)
     * (IN_DEV_RPFILTER, include/linux/inetdevice.h, as fib_validate_source in net/ipv4/fib_frontend.c reads it). One
     * side unknown leaves the maximum unknown, unless the known side is already 2 (loose), which nothing exceeds in
     * effect: every value other than 0 and 1 is loose in __fib_validate_source.
     */
    public OrUnknown<Long> rpFilter(String iface) {
        OrUnknown<Long> all = sysctlNumber(interfaceSysctlKey("all", "rp_filter"));
        OrUnknown<Long> own = sysctlNumber(interfaceSysctlKey(iface, "rp_filter"));
        if (all.isKnown() && own.isKnown()) {
            return OrUnknown.known(Math.max(all.value(), own.value()));
        }
        OrUnknown<Long> known = all.isKnown() ? all : own;
        if (known.isKnown() && known.value() >= 2) {
            return known;
        }
        return OrUnknown.unknown((all.isKnown() ? own : all).reason());
    }

    /**
     * Whether a packet arriving on {@code iface} may carry one of the node's own addresses as its source: accept_local
     * in conf.all or conf.IFACE (IN_DEV_ACCEPT_LOCAL is IN_DEV_ORCONF, include/linux/inetdevice.h); else
     * fib_validate_source rejects it as a martian. A null {@code iface} (ingress unknown) asks it of every interface.
     */
    public OrUnknown<Boolean> acceptLocal(String iface) {
        OrUnknown<Long> all = sysctlNumber(interfaceSysctlKey("all", "accept_local"));
        if (all.isKnown() && all.value() != 0) {
            return OrUnknown.known(true);
        }
        List<String> names = iface != null ? List.of(iface)
                : interfaces.orElse(List.of()).stream().map(NodeInterface::name).toList();
        if (iface == null && !interfaces.isKnown()) {
            return interfaces.asUnknown();
        }
        boolean anyUnknown = !all.isKnown();
        String reason = all.isKnown() ? null : all.reason();
        for (String n : names) {
            OrUnknown<Long> own = sysctlNumber(interfaceSysctlKey(n, "accept_local"));
            if (own.isKnown() && own.value() != 0) {
                return iface != null ? OrUnknown.known(true) : OrUnknown.unknown("accept_local is on for " + n + " only");
            }
            if (!own.isKnown()) {
                anyUnknown = true;
                reason = own.reason();
            }
        }
        return anyUnknown ? OrUnknown.unknown(reason) : OrUnknown.known(false);
    }

    /**
     * The reverse-path filter in force on every interface of the node at once, for a packet whose ingress is unknown: the
     * lowest and highest of {@link #rpFilter} over the interfaces (each interface's own value unknown leaves the range
     * unknown, unless conf.all alone makes every interface loose).
     */
    public OrUnknown<long[]> rpFilterRange() {
        if (!interfaces.isKnown()) {
            return interfaces.asUnknown();
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (NodeInterface i : interfaces.value()) {
            OrUnknown<Long> v = rpFilter(i.name());
            if (!v.isKnown()) {
                return v.asUnknown();
            }
            lo = Math.min(lo, v.value());
            hi = Math.max(hi, v.value());
        }
        return lo > hi ? OrUnknown.unknown("no interfaces") : OrUnknown.known(new long[] {lo, hi});
    }

    /**
     * The device the IP layer sees a packet arriving on {@code iface} come in by: a bridge port's frames reach IPv4 as
     * the bridge's own (br_pass_frame_up sets skb->dev to the bridge, net/bridge/br_input.c), so rp_filter and the
     * route back are the bridge's.
     */
    public String ipDevice(String iface) {
        OrUnknown<NodeInterface> br = bridgeOf(iface);
        return br.isKnown() ? br.value().name() : iface;
    }

    // ---- routes

    /**
     * The route the node's main table takes to {@code destination}: longest prefix, then lowest metric; routes of the
     * local table and routes without a device are none. Empty when no route matches; unknown when the routes are.
     */
    public OrUnknown<Optional<Route>> routeTo(Endpoint destination) {
        Endpoint a = destination.withoutPort();
        OrUnknown<List<Route>> table = a.isV4() ? routesV4 : routesV6;
        if (!table.isKnown()) {
            return table.asUnknown();
        }
        Route best = null;
        for (Route r : table.value()) {
            InterfaceAddress d = r.destination();
            if (d == null || !d.contains(a) || r.flags().contains("local") || r.device() == null || r.device().isEmpty()) {
                continue;
            }
            if (best == null || d.prefixLength() > best.destination().prefixLength()
                    || (d.prefixLength() == best.destination().prefixLength() && r.metric() < best.metric())) {
                best = r;
            }
        }
        // An unreachable, prohibit or blackhole route is a lookup that fails (fib_lookup returns an error): no route.
        return OrUnknown.known(Optional.ofNullable(best).filter(r -> !r.flags().contains("reject")));
    }

    // ---- counters

    /** How much a counter changed over the sample, or why that is unknown (not sampled). */
    public OrUnknown<Long> counterDelta(String name) {
        return sampleEnd.isKnown() ? sampleEnd.value().since(counters).get(name) : sampleEnd.asUnknown();
    }

    /** Start and end of the sample, if sampled. */
    public OrUnknown<Counters.Deltas> deltas() {
        return sampleEnd.map(end -> end.since(counters));
    }
}
