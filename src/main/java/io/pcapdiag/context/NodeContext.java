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

    /** The route the node's main table takes to {@code destination} ({@link NodeFacts#routeTo}). */
    private Optional<Route> route(Endpoint destination) {
        return facts.routeTo(destination).orElse(Optional.empty());
    }
}
