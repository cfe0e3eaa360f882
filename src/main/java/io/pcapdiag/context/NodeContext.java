package io.pcapdiag.context;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.node.InterfaceAddress;
import io.pcapdiag.node.NodeFacts;
import io.pcapdiag.node.NodeInterface;
import io.pcapdiag.node.OrUnknown;
import io.pcapdiag.node.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code --node-facts FILE}: what the capture's node said about itself (pcapdiag node-facts), as the
 * context's answers. A fact the document holds as unknown answers nothing: the cause it would judge stays
 * unknown. Loaded only when node facts are given.
 */
public final class NodeContext implements Context {
    private final Supplier<NodeFacts> current;
    private NodeFacts facts;
    private String node;

    public NodeContext(NodeFacts facts) {
        this(() -> facts);
    }

    /** Facts that change (live: read again now and then, counters rising since the start). */
    public NodeContext(Supplier<NodeFacts> current) {
        this.current = current;
        refresh();
    }

    /** Takes the current facts (each question asks this first; a supplier of fixed facts costs nothing). */
    private void refresh() {
        NodeFacts f = current.get();
        if (f != facts) {
            facts = f;
            node = f.nodeName().orElse("the node");
        }
    }

    private Fact fact(String text) {
        return new Fact(Source.NODE, text);
    }

    @Override
    public boolean informs() {
        return true;
    }

    /** These facts speak for their own node only (for any when their node is not named). */
    @Override
    public Context forNode(String other) {
        refresh();
        return other == null || !facts.nodeName().isKnown() || other.equals(facts.nodeName().value()) ? this : Context.none();
    }

    @Override
    public Optional<Reading> captureNode() {
        refresh();
        if (!facts.nodeName().isKnown()) {
            return Optional.empty();
        }
        return Optional.of(new Reading("node", node, fact("the node facts given are " + node + "'s (node-facts, "
                + facts.nodeNameSource() + ")")));
    }

    @Override
    public Optional<Reading> sysctl(String key) {
        refresh();
        OrUnknown<String> v = facts.sysctl(key);
        if (v.isKnown()) {
            return Optional.of(new Reading(key, v.value(), fact(key + " = " + v.value() + " on " + node)));
        }
        return Optional.empty();
    }

    @Override
    public Optional<Reading> bridgedToIptables(Endpoint client, int ifIndex) {
        refresh();
        Optional<String> bridge = bridgeOf(client, ifIndex);
        if (bridge.isEmpty()) {
            return Optional.empty();
        }
        boolean v6 = !client.isV4();
        OrUnknown<Boolean> on = facts.bridgeNfCall(bridge.get(), v6);
        if (!on.isKnown()) {
            return Optional.empty();
        }
        String table = v6 ? "ip6tables" : "iptables";
        String text;
        if (!facts.brNetfilterLoaded().orElse(true)) {
            text = "br_netfilter is not loaded on " + node + " (no /proc/sys/net/bridge): bridged traffic on " + bridge.get()
                    + " never reaches " + table;
        } else {
            text = "bridged " + (v6 ? "IPv6" : "IPv4") + " traffic on " + bridge.get() + " " + (on.value() ? "reaches" : "skips")
                    + " " + table + " on " + node + ": net.bridge.bridge-nf-call-" + table + " = "
                    + facts.sysctl("net.bridge.bridge-nf-call-" + table).orElse("?") + nfCallOwn(bridge.get(), v6);
        }
        return Optional.of(new Reading(bridge.get(), on.value() ? "1" : "0", fact(text)));
    }

    private String nfCallOwn(String bridge, boolean v6) {
        return facts.interfaceByName(bridge).map(NodeInterface::bridge)
                .map(b -> v6 ? b.nfCallIp6tables() : b.nfCallIptables()).filter(OrUnknown::isKnown)
                .map(f -> ", " + bridge + "'s own nf_call_" + (v6 ? "ip6tables" : "iptables") + " = " + f.value()).orElse("");
    }

    /** The bridge the client's packets arrive on: its SYN's interface's master, or the bridge its neighbour entry is on. */
    private Optional<String> bridgeOf(Endpoint client, int ifIndex) {
        Optional<String> port = port(client, ifIndex);
        if (port.isPresent()) {
            OrUnknown<NodeInterface> br = facts.bridgeOf(port.get());
            if (br.isKnown()) {
                return Optional.of(br.value().name());
            }
        }
        Optional<NodeInterface> byIndex = facts.interfaceByIndex(ifIndex);
        if (byIndex.isPresent() && byIndex.get().bridge() != null) {
            return Optional.of(byIndex.get().name());
        }
        return route(client).map(Route::device).filter(d -> facts.interfaceByName(d).map(i -> i.bridge() != null).orElse(false));
    }

    /** The bridge port the client sits behind: the interface its SYN was captured on, if that is a port; else by neighbour/FDB. */
    private Optional<String> port(Endpoint client, int ifIndex) {
        Optional<NodeInterface> seen = facts.interfaceByIndex(ifIndex);
        if (seen.isPresent() && seen.get().bridgePort() != null) {
            return Optional.of(seen.get().name());
        }
        OrUnknown<NodeInterface> behind = facts.bridgePortBehind(client);
        return behind.isKnown() ? Optional.of(behind.value().name()) : Optional.empty();
    }

    @Override
    public Optional<Reading> hairpin(Endpoint client, int ifIndex) {
        refresh();
        Optional<String> port = port(client, ifIndex);
        if (port.isEmpty()) {
            return Optional.empty();
        }
        OrUnknown<Integer> mode = facts.hairpinMode(port.get());
        if (!mode.isKnown()) {
            return Optional.empty();
        }
        String bridge = facts.bridgeOf(port.get()).map(NodeInterface::name).orElse("its bridge");
        return Optional.of(new Reading(port.get(), String.valueOf(mode.value()), fact("hairpin mode of " + port.get()
                + " (the port of " + bridge + " that " + client.address() + " sits behind) is " + mode.value() + " on " + node)));
    }

    @Override
    public Optional<Reading> localAddress(Endpoint address) {
        refresh();
        OrUnknown<Boolean> local = facts.isLocal(address);
        if (!local.isKnown()) {
            return Optional.empty();
        }
        Optional<NodeInterface> holder = facts.interfaceHolding(address);
        if (local.value() && holder.isPresent()) {
            String i = holder.get().name();
            return Optional.of(new Reading(i, i, fact(address.address() + " is an address of " + i + " on " + node)));
        }
        return Optional.of(new Reading(address.address(), null, fact(address.address() + " is none of " + node
                + "'s addresses")));
    }

    @Override
    public Optional<Reading> counterRise(String counter) {
        refresh();
        OrUnknown<Long> d = facts.counterDelta(counter);
        if (!d.isKnown()) {
            return Optional.empty();
        }
        double seconds = facts.deltas().map(x -> x.seconds()).orElse(0.0);
        return Optional.of(new Reading(counter, String.valueOf(d.value()), fact(counter + " rose by " + d.value() + " over the "
                + String.format(Locale.ROOT, "%.1f", seconds) + " s the node facts sampled on " + node)));
    }

    @Override
    public Optional<Reading> proxyMode() {
        refresh();
        OrUnknown<String> m = facts.kubeProxyMode();
        if (!m.isKnown()) {
            return Optional.empty();
        }
        return Optional.of(new Reading("kube-proxy", m.value(), fact("kube-proxy on " + node + " runs in " + m.value()
                + " mode (:10249/proxyMode)")));
    }

    /**
     * kube-proxy's IPVS dummy device ({@code kube-ipvs0}, pkg/proxy/ipvs), dummies and loopback hold addresses but never
     * receive a packet from outside: a SYN to an address they hold came in elsewhere.
     */
    @Override
    public Optional<Reading> ingressFor(Endpoint dialed) {
        refresh();
        Optional<NodeInterface> holder = facts.interfaceHolding(dialed);
        if (holder.isEmpty()) {
            return Optional.empty();
        }
        NodeInterface i = holder.get();
        String kind = i.kind() == null ? null : i.kind().orElse(null);
        if (i.name().equals("kube-ipvs0") || "dummy".equals(kind) || "loopback".equals(kind) || i.name().equals("lo")) {
            return Optional.empty();
        }
        return Optional.of(new Reading(i.name(), i.name(), fact(dialed.address() + " is an address of " + i.name() + " on "
                + node + ", so a SYN dialing it came in on " + i.name() + " (inferred: the capture does not say which"
                + " interface it was taken on)")));
    }

    @Override
    public Optional<Reading> rpFilter(String iface) {
        refresh();
        String dev = facts.ipDevice(iface);
        OrUnknown<Long> v = facts.rpFilter(dev);
        if (!v.isKnown()) {
            return Optional.empty();
        }
        String mode = v.value() == 0 ? "off" : v.value() == 1 ? "strict" : "loose";
        String all = facts.sysctl(NodeFacts.interfaceSysctlKey("all", "rp_filter")).orElse("unknown");
        String own = facts.sysctl(NodeFacts.interfaceSysctlKey(dev, "rp_filter")).orElse("unknown");
        String via = dev.equals(iface) ? "" : " (" + iface + " is a port of " + dev + ", so IPv4 sees the packet come in on " + dev + ")";
        return Optional.of(new Reading(dev, String.valueOf(v.value()), fact("rp_filter in force on " + dev + " is " + v.value()
                + " (" + mode + ") on " + node + ": the higher of " + NodeFacts.interfaceSysctlKey("all", "rp_filter") + " = " + all
                + " and " + NodeFacts.interfaceSysctlKey(dev, "rp_filter") + " = " + own + via)));
    }

    @Override
    public Optional<Reading> acceptLocal(String iface) {
        refresh();
        String dev = iface == null ? null : facts.ipDevice(iface);
        OrUnknown<Boolean> v = facts.acceptLocal(dev);
        if (!v.isKnown()) {
            return Optional.empty();
        }
        String where = dev == null ? "any interface" : dev;
        String keys = NodeFacts.interfaceSysctlKey("all", "accept_local") + " = "
                + facts.sysctl(NodeFacts.interfaceSysctlKey("all", "accept_local")).orElse("unknown")
                + (dev == null ? (v.value() ? "" : ", and 0 on every interface")
                : ", " + NodeFacts.interfaceSysctlKey(dev, "accept_local") + " = "
                        + facts.sysctl(NodeFacts.interfaceSysctlKey(dev, "accept_local")).orElse("unknown"));
        return Optional.of(new Reading(where, v.value() ? "1" : "0", fact((v.value() ? "packets from the node's own addresses are accepted on "
                : "packets from the node's own addresses are dropped as martians on ") + where + " on " + node + " (" + keys + ")")));
    }

    @Override
    public Optional<Reading> kernelRelease() {
        refresh();
        OrUnknown<String> k = facts.kernelRelease();
        return k.isKnown() ? Optional.of(new Reading("kernel", k.value(), fact(node + " runs Linux " + k.value()))) : Optional.empty();
    }

    @Override
    public Optional<Reading> rpFilterEverywhere() {
        refresh();
        OrUnknown<long[]> range = facts.rpFilterRange();
        if (!range.isKnown()) {
            return Optional.empty();
        }
        long lo = range.value()[0];
        long hi = range.value()[1];
        String all = NodeFacts.interfaceSysctlKey("all", "rp_filter") + " = " + facts.sysctl(NodeFacts.interfaceSysctlKey("all",
                "rp_filter")).orElse("unknown");
        if (hi == 0) {
            return Optional.of(new Reading("every interface", "0", fact("no interface of " + node + " filters by reverse path: "
                    + all + " and every interface's own rp_filter is 0")));
        }
        if (lo >= 2) {
            return Optional.of(new Reading("every interface", String.valueOf(lo), fact("every interface of " + node
                    + " filters by reverse path in loose mode (" + all + ", each interface's own value at most loose)")));
        }
        return Optional.empty();
    }

    @Override
    public Optional<Reading> routeBack(Endpoint source) {
        refresh();
        OrUnknown<Optional<Route>> r = facts.routeTo(source);
        if (!r.isKnown()) {
            return Optional.empty();
        }
        String a = source.address();
        if (r.value().isEmpty()) {
            return Optional.of(new Reading(a, null, fact("the main routing table of " + node + " has no route back to " + a)));
        }
        Route route = r.value().get();
        return Optional.of(new Reading(a, route.device(), fact("the route back to " + a + " on " + node + " ("
                + route.destination() + (route.gateway() != null ? " via " + route.gateway().address() : "") + ") leaves by "
                + route.device())));
    }

    @Override
    public Optional<String> interfaceName(int ifIndex) {
        refresh();
        return ifIndex < 0 ? Optional.empty() : facts.interfaceName(ifIndex);
    }

    @Override
    public List<String> expectedPath(Endpoint destination) {
        refresh();
        Optional<Route> r = route(destination);
        if (r.isEmpty()) {
            return List.of();
        }
        String dev = r.get().device();
        List<String> path = new ArrayList<>();
        path.add(dev);
        Optional<NodeInterface> out = facts.interfaceByName(dev);
        if (out.isPresent() && out.get().bridge() != null) {
            OrUnknown<NodeInterface> port = facts.bridgePortBehind(destination);
            if (port.isKnown()) {
                path.add(port.value().name());
            }
        } else if (out.isPresent() && out.get().vxlan() != null && out.get().vxlan().isKnown() && out.get().vxlan().value() != null
                && out.get().vxlan().value().link() != null) {
            path.add(out.get().vxlan().value().link());
        }
        return path;
    }

    @Override
    public Optional<Reading> interfaceMtu(String iface) {
        refresh();
        Optional<NodeInterface> i = facts.interfaceByName(iface);
        if (i.isEmpty() || i.get().mtu() == null || !i.get().mtu().isKnown()) {
            return Optional.empty();
        }
        int mtu = i.get().mtu().value();
        return Optional.of(new Reading(iface, String.valueOf(mtu), fact("the MTU of " + iface + kind(i.get()) + " is " + mtu
                + " on " + node)));
    }

    @Override
    public Optional<Reading> largestPodMtu() {
        refresh();
        NodeInterface largest = null;
        int ports = 0;
        for (NodeInterface i : facts.interfaces().orElse(List.of())) {
            if (podPort(i) && i.mtu() != null && i.mtu().isKnown()) {
                ports++;
                if (largest == null || i.mtu().value() > largest.mtu().value()) {
                    largest = i;
                }
            }
        }
        if (largest == null) {
            return Optional.empty();
        }
        int mtu = largest.mtu().value();
        return Optional.of(new Reading(largest.name(), String.valueOf(mtu), fact("the largest MTU among the " + ports
                + " pod veth" + (ports == 1 ? "" : "s") + " of " + node + " is " + mtu + " (" + largest.name() + ")")));
    }

    /**
     * A pod's host-side veth: a bridge port (bridge CNIs: flannel, kubenet) or a veth holding no address but link-local
     * ones (routed CNIs: Calico's cali*, Cilium's lxc*); a veth with an address is the node's own (a lab node's eth0).
     */
    private static boolean podPort(NodeInterface i) {
        if (i.kind() == null || !"veth".equals(i.kind().orElse(null))) {
            return false;
        }
        if (i.master() != null) {
            return true;
        }
        for (InterfaceAddress a : i.addresses().orElse(List.of())) {
            if (a.address().isV4() || (a.address().hi() >>> 54) != (0xfe80L >>> 6)) {
                return false; // an IPv4 or a global IPv6 address
            }
        }
        return i.addresses().isKnown();
    }

    /** The tunnel link kinds, what each adds to a packet over an IPv4 and an IPv6 underlay (-1: never that family). */
    private record Encapsulation(String name, int overV4, int overV6, boolean exact) {
    }

    /**
     * The encapsulations of Linux's tunnel devices: the outer headers each puts before the inner IP packet. VXLAN: outer
     * IP (20 or 40), UDP 8, VXLAN 8 and the inner Ethernet header 14 (drivers/net/vxlan/vxlan_core.c, VXLAN_HEADROOM and
     * VXLAN6_HEADROOM); Geneve the same with its base header, options on top; IP in IP and sit an outer IPv4 header,
     * ip6tnl an outer IPv6 one; GRE 4 bytes more (key and sequence number 4 each), gretap the inner Ethernet header too;
     * WireGuard outer IP, UDP 8, its 16-byte data header and 16-byte tag.
     */
    private static final Map<String, Encapsulation> TUNNELS = Map.of(
            "vxlan", new Encapsulation("VXLAN", 50, 70, true),
            "geneve", new Encapsulation("Geneve", 50, 70, false),
            "ipip", new Encapsulation("IP in IP", 20, -1, true),
            "sit", new Encapsulation("sit (IPv6 in IPv4)", 20, -1, true),
            "ip6tnl", new Encapsulation("ip6tnl", -1, 40, true),
            "gre", new Encapsulation("GRE", 24, -1, false),
            "gretap", new Encapsulation("GRE (Ethernet)", 38, -1, false),
            "ip6gre", new Encapsulation("GRE over IPv6", -1, 44, false),
            "ip6gretap", new Encapsulation("GRE over IPv6 (Ethernet)", -1, 58, false),
            "wireguard", new Encapsulation("WireGuard", 60, 80, true));

    private static Encapsulation encapsulation(NodeInterface i) {
        return i.kind() == null ? null : TUNNELS.get(i.kind().orElse(""));
    }

    @Override
    public Optional<TunnelFacts> tunnel(Endpoint destination) {
        refresh();
        if (!facts.interfaces().isKnown()) {
            return Optional.empty();
        }
        List<NodeInterface> tunnels = new ArrayList<>();
        for (NodeInterface i : facts.interfaces().value()) {
            if (encapsulation(i) != null) {
                tunnels.add(i);
            }
        }
        String to = destination.address();
        OrUnknown<Optional<Route>> route = facts.routeTo(destination);
        String by = route.isKnown() ? route.value().map(Route::device).orElse(null) : null;
        Optional<NodeInterface> out = by == null ? Optional.empty() : facts.interfaceByName(by);
        NodeInterface tunnel = null;
        String why;
        if (out.isPresent() && encapsulation(out.get()) != null) {
            tunnel = out.get();
            why = "the route to " + to + " leaves by it";
        } else if (out.isPresent() && out.get().bridge() != null) {
            return Optional.of(TunnelFacts.none(fact("the route to " + to + " on " + node + " leaves by " + by + ", the bridge of "
                    + node + "'s own pods: those packets are not encapsulated")));
        } else if (tunnels.isEmpty()) {
            List<String> kinds = new ArrayList<>(new java.util.TreeSet<>(TUNNELS.keySet()));
            return Optional.of(TunnelFacts.none(fact(node + " has no tunnel device (" + String.join(", ", kinds)
                    + "): it encapsulates none of its pods' packets")));
        } else if (tunnels.size() == 1) {
            tunnel = tunnels.get(0);
            why = "the only tunnel device of " + node + "; " + (!route.isKnown() ? "its routes are unknown"
                    : by == null ? "its main table has no route to " + to : "the route to " + to + " leaves by " + by);
        } else {
            return Optional.empty(); // several tunnels, and the route names none of them: which one carries it is unknown
        }
        Encapsulation e = encapsulation(tunnel);
        Integer mtu = known(tunnel.mtu());
        NodeInterface.Vxlan vx = tunnel.vxlan() != null && tunnel.vxlan().isKnown() ? tunnel.vxlan().value() : null;
        Optional<Endpoint> local = vx == null || vx.local() == null ? Optional.empty() : address(vx.local());
        // The underlay: the VXLAN device's link, else the interface holding its local address, else the default route's.
        String underlay = null;
        String how = null;
        if (vx != null && vx.link() != null) {
            underlay = vx.link();
            how = tunnel.name() + "'s link";
        } else if (local.isPresent() && facts.interfaceHolding(local.get()).isPresent()) {
            underlay = facts.interfaceHolding(local.get()).get().name();
            how = "it holds " + tunnel.name() + "'s local address " + local.get().address();
        }
        // The underlay's family: the encapsulation's only one, else its local address's, else its underlay device's.
        boolean fixed = e.overV4 < 0 || e.overV6 < 0;
        boolean v6 = fixed ? e.overV4 < 0 : local.isPresent() ? !local.get().isV4()
                : underlay != null && onlyV6(facts.interfaceByName(underlay));
        if (underlay == null) {
            underlay = defaultRouteDevice(v6);
            how = "the default route's device";
            if (underlay == null && !fixed && local.isEmpty()) {
                underlay = defaultRouteDevice(true);
                v6 = underlay != null;
            }
        }
        int overhead = v6 ? e.overV6 : e.overV4;
        Integer underlayMtu = underlay == null ? null : facts.interfaceByName(underlay).map(i -> known(i.mtu())).orElse(null);
        String text = tunnel.name() + " (" + tunnel.kind().orElse("tunnel") + ", MTU " + (mtu == null ? "unknown" : mtu)
                + ") carries " + node + "'s packets to " + to + " (" + why + "); " + e.name + " adds " + (e.exact ? "" : "at least ")
                + overhead + " bytes over its IPv" + (v6 ? "6" : "4") + " underlay " + (underlay == null ? "(unknown)"
                : underlay + " (MTU " + (underlayMtu == null ? "unknown" : underlayMtu) + ", " + how + ")");
        return Optional.of(new TunnelFacts(tunnel.name(), tunnel.kind().orElse(null), mtu, overhead, e.exact, underlay,
                underlayMtu, out.isPresent() && out.get() == tunnel, fact(text)));
    }

    private static Integer known(OrUnknown<Integer> v) {
        return v != null && v.isKnown() ? v.value() : null;
    }

    private static String kind(NodeInterface i) {
        return i.kind() != null && i.kind().isKnown() ? " (" + i.kind().value() + ")" : "";
    }

    /** An interface that holds IPv6 addresses and no IPv4 one (its encapsulated packets leave by IPv6). */
    private static boolean onlyV6(Optional<NodeInterface> i) {
        List<InterfaceAddress> all = i.map(x -> x.addresses().orElse(List.<InterfaceAddress>of())).orElse(List.of());
        return !all.isEmpty() && all.stream().noneMatch(a -> a.address().isV4());
    }

    /** The device of the main table's default route of the family (lowest metric), or null. */
    private String defaultRouteDevice(boolean v6) {
        Route best = null;
        for (Route r : (v6 ? facts.routesV6() : facts.routesV4()).orElse(List.of())) {
            if (r.destination() != null && r.destination().prefixLength() == 0 && r.device() != null && !r.device().isEmpty()
                    && !r.flags().contains("reject") && (best == null || r.metric() < best.metric())) {
                best = r;
            }
        }
        return best == null ? null : best.device();
    }

    private static Optional<Endpoint> address(String ip) {
        try {
            long[] a = io.pcapdiag.decode.Ip.parse(ip);
            return Optional.of(Endpoint.address(a[0], a[1]));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The rules that drop conntrack's INVALID and see packets of the family: iptables-save's (and its legacy variant's)
     * filter IPv4, ip6tables-save's IPv6, an nftables table its own family (inet, bridge and netdev both; arp neither).
     * Only rules found are in the document, so when every rule found is of the other family, whether one of this family
     * exists is unknown: empty. The rule's chain is not judged (kube-proxy's is KUBE-FORWARD, jumped to from FORWARD).
     */
    @Override
    public Optional<Reading> invalidDropRules(boolean ipv6) {
        refresh();
        OrUnknown<List<String>> rules = facts.invalidDropRules();
        if (rules == null || !rules.isKnown()) {
            return Optional.empty();
        }
        List<String> applies = new ArrayList<>();
        for (String r : rules.value()) {
            if (seesFamily(r, ipv6)) {
                applies.add(r);
            }
        }
        String what = "what conntrack marks INVALID";
        if (rules.value().isEmpty()) {
            return Optional.of(new Reading("conntrack_invalid_drop_rules", null, fact("no firewall rule of " + node + " drops "
                    + what + " (conntrack_invalid_drop_rules: none in iptables-save, ip6tables-save or nft list ruleset)")));
        }
        if (applies.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Reading("conntrack_invalid_drop_rules", String.join("\n", applies), fact(node + " drops " + what
                + " (" + (ipv6 ? "IPv6" : "IPv4") + "): " + String.join("; ", applies))));
    }

    /** Whether a rule as {@link io.pcapdiag.node.NodeFacts#invalidDropRules} words it sees packets of the family. */
    static boolean seesFamily(String rule, boolean ipv6) {
        if (rule.startsWith("ip6tables")) {
            return ipv6;
        }
        if (rule.startsWith("iptables")) {
            return !ipv6;
        }
        if (rule.startsWith("nft: table ")) {
            String family = rule.substring("nft: table ".length()).split(" ", 2)[0];
            return switch (family) {
                case "ip" -> !ipv6;
                case "ip6" -> ipv6;
                case "arp" -> false;
                default -> true; // inet, bridge, netdev
            };
        }
        return true; // a rule of a tool this does not know: it may
    }

    /** The route the node's main table takes to {@code destination} ({@link NodeFacts#routeTo}). */
    private Optional<Route> route(Endpoint destination) {
        return facts.routeTo(destination).orElse(Optional.empty());
    }
}
