package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The node's interfaces from /sys/class/net (one directory per interface of the namespace sysfs was mounted for),
 * completed by {@code ip} when it ran: link kinds, addresses, VXLAN parameters.
 */
final class Interfaces {
    /** ARPHRD_LOOPBACK (linux/if_arp.h), in /sys/class/net/X/type. */
    private static final int ARPHRD_LOOPBACK = 772;
    /** IFF_UP (linux/if.h), in /sys/class/net/X/flags. */
    private static final long IFF_UP = 0x1;

    private Interfaces() {
    }

    static OrUnknown<List<NodeInterface>> read(Path sysClassNet, OrUnknown<Map<Integer, IpCommand.Link>> ip) {
        List<Path> dirs;
        try (Stream<Path> s = Files.list(sysClassNet)) {
            dirs = s.sorted().toList();
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(sysClassNet, e));
        }
        OrUnknown<Map<Integer, List<InterfaceAddress>>> fallback = ip.isKnown() ? null : getifaddrs();
        List<NodeInterface> out = new ArrayList<>();
        for (Path dir : dirs) {
            OrUnknown<Long> index = ProcFiles.number(dir.resolve("ifindex"));
            if (!index.isKnown()) {
                continue; // no interface (bonding_masters), or one removed while this ran
            }
            int ifindex = index.value().intValue();
            String name = dir.getFileName().toString();
            IpCommand.Link link = ip.isKnown() ? ip.value().get(ifindex) : null;
            OrUnknown<String> kind = link != null ? OrUnknown.known(link.kind()) : kindFromSysfs(dir, ip);
            OrUnknown<List<InterfaceAddress>> addresses = addresses(ifindex, name, ip, link, fallback);
            NodeInterface.BridgePort port = null;
            if (Files.isDirectory(dir.resolve("brport"))) {
                OrUnknown<Integer> portNo = ProcFiles.integer(dir.resolve("brport/port_no"));
                port = new NodeInterface.BridgePort(portNo, ProcFiles.integer(dir.resolve("brport/hairpin_mode")));
            }
            String master = master(dir);
            OrUnknown<NodeInterface.Vxlan> vxlan = null;
            if ("vxlan".equals(kind.value())) {
                vxlan = link != null && link.vxlan() != null ? OrUnknown.known(link.vxlan())
                        : OrUnknown.unknown("VXLAN parameters are reported only over netlink: " + ipReason(ip));
            }
            OrUnknown<Long> flags = ProcFiles.number(dir.resolve("flags"));
            out.add(new NodeInterface(ifindex, name, kind, ProcFiles.fact(dir.resolve("operstate")),
                    flags.map(f -> (f & IFF_UP) != 0), ProcFiles.fact(dir.resolve("address")),
                    ProcFiles.integer(dir.resolve("mtu")), ProcFiles.integer(dir.resolve("iflink")), master, addresses,
                    port, null, vxlan));
        }
        // Bridges last: their forwarding database names ports, which are other interfaces.
        List<NodeInterface> done = new ArrayList<>();
        for (NodeInterface i : out) {
            Path dir = sysClassNet.resolve(i.name());
            if (!Files.isDirectory(dir.resolve("bridge"))) {
                done.add(i);
                continue;
            }
            Map<Integer, String> ports = new HashMap<>();
            for (NodeInterface p : out) {
                if (i.name().equals(p.master()) && p.bridgePort() != null && p.bridgePort().portNo().isKnown()) {
                    ports.put(p.bridgePort().portNo().value(), p.name());
                }
            }
            NodeInterface.Bridge bridge = new NodeInterface.Bridge(ProcFiles.integer(dir.resolve("bridge/nf_call_iptables")),
                    ProcFiles.integer(dir.resolve("bridge/nf_call_ip6tables")),
                    ProcFiles.integer(dir.resolve("bridge/nf_call_arptables")), BridgeFdb.read(dir.resolve("brforward"), ports));
            done.add(new NodeInterface(i.ifindex(), i.name(), i.kind(), i.operstate(), i.adminUp(), i.mac(), i.mtu(),
                    i.iflink(), i.master(), i.addresses(), i.bridgePort(), bridge, i.vxlan()));
        }
        done.sort(Comparator.comparingInt(NodeInterface::ifindex));
        return OrUnknown.known(List.copyOf(done));
    }

    /** The interface's master (its bridge, bond...): the name /sys/class/net/X/master links to, or null. */
    private static String master(Path dir) {
        Path link = dir.resolve("master");
        try {
            return Files.isSymbolicLink(link) ? Files.readSymbolicLink(link).getFileName().toString() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Without {@code ip}: the loopback type, DEVTYPE from uevent (bridge, vxlan, vlan, bond... name it; veth does
     * not), or {@code device} for an interface backed by a bus device (a NIC).
     */
    private static OrUnknown<String> kindFromSysfs(Path dir, OrUnknown<?> ip) {
        OrUnknown<Long> type = ProcFiles.number(dir.resolve("type"));
        if (type.isKnown() && type.value() == ARPHRD_LOOPBACK) {
            return OrUnknown.known("loopback");
        }
        if (Files.exists(dir.resolve("device"))) {
            return OrUnknown.known("device");
        }
        Path uevent = dir.resolve("uevent");
        try {
            for (String line : ProcFiles.text(uevent).split("\n")) {
                if (line.startsWith("DEVTYPE=")) {
                    return OrUnknown.known(line.substring("DEVTYPE=".length()).trim());
                }
            }
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(uevent, e) + "; " + ipReason(ip));
        }
        return OrUnknown.unknown(uevent + " names no DEVTYPE; " + ipReason(ip));
    }

    private static String ipReason(OrUnknown<?> ip) {
        return ip.isKnown() ? "ip did not list it" : ip.reason();
    }

    private static OrUnknown<List<InterfaceAddress>> addresses(int ifindex, String name, OrUnknown<Map<Integer, IpCommand.Link>> ip,
                                                          IpCommand.Link link, OrUnknown<Map<Integer, List<InterfaceAddress>>> fallback) {
        List<InterfaceAddress> list;
        if (ip.isKnown()) {
            if (link == null) {
                return OrUnknown.unknown("ip did not list " + name + " (created after it ran?)");
            }
            list = new ArrayList<>(link.addresses());
        } else if (fallback.isKnown()) {
            list = new ArrayList<>(fallback.value().getOrDefault(ifindex, List.of()));
        } else {
            return fallback.asUnknown();
        }
        Collections.sort(list);
        return OrUnknown.known(List.copyOf(list));
    }

    /**
     * Addresses by ifindex from getifaddrs(3), as java.net.NetworkInterface reads them: every address with its
     * prefix length, down interfaces (kube-ipvs0) included.
     */
    private static OrUnknown<Map<Integer, List<InterfaceAddress>>> getifaddrs() {
        Map<Integer, List<InterfaceAddress>> out = new HashMap<>();
        try {
            var all = NetworkInterface.getNetworkInterfaces();
            while (all != null && all.hasMoreElements()) {
                NetworkInterface n = all.nextElement();
                List<InterfaceAddress> list = new ArrayList<>();
                for (java.net.InterfaceAddress a : n.getInterfaceAddresses()) {
                    list.add(new InterfaceAddress(endpoint(a.getAddress()), a.getNetworkPrefixLength()));
                }
                out.put(n.getIndex(), list);
            }
        } catch (SocketException e) {
            return OrUnknown.unknown("cannot list addresses (getifaddrs): " + e.getMessage());
        }
        return OrUnknown.known(out);
    }

    private static Endpoint endpoint(InetAddress a) {
        byte[] b = a.getAddress();
        long hi = 0;
        long lo = 0;
        if (b.length == 4) {
            lo = 0xffffL << 32 | (b[0] & 0xffL) << 24 | (b[1] & 0xffL) << 16 | (b[2] & 0xffL) << 8 | (b[3] & 0xffL);
        } else {
            for (int i = 0; i < 8; i++) {
                hi = hi << 8 | (b[i] & 0xff);
                lo = lo << 8 | (b[i + 8] & 0xff);
            }
        }
        return Endpoint.address(hi, lo);
    }
}
