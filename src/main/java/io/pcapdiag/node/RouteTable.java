package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Routes from /proc/net/route (IPv4, main table) and /proc/net/ipv6_route (IPv6, every table). */
final class RouteTable {
    /** RTF_* of linux/route.h and linux/ipv6_route.h, by bit. */
    private static final String[] FLAG_NAMES = new String[32];

    static {
        FLAG_NAMES[0] = "up";            // RTF_UP 0x0001
        FLAG_NAMES[1] = "gateway";       // RTF_GATEWAY 0x0002
        FLAG_NAMES[2] = "host";          // RTF_HOST 0x0004
        FLAG_NAMES[4] = "dynamic";       // RTF_DYNAMIC 0x0010
        FLAG_NAMES[5] = "modified";      // RTF_MODIFIED 0x0020
        FLAG_NAMES[9] = "reject";        // RTF_REJECT 0x0200
        FLAG_NAMES[16] = "default";      // RTF_DEFAULT 0x00010000 (router advertisement)
        FLAG_NAMES[18] = "addrconf";     // RTF_ADDRCONF 0x00040000
        FLAG_NAMES[19] = "prefix_rt";    // RTF_PREFIX_RT 0x00080000
        FLAG_NAMES[20] = "anycast";      // RTF_ANYCAST 0x00100000
        FLAG_NAMES[21] = "nonexthop";    // RTF_NONEXTHOP 0x00200000
        FLAG_NAMES[22] = "expires";      // RTF_EXPIRES 0x00400000
        FLAG_NAMES[24] = "cache";        // RTF_CACHE 0x01000000
        FLAG_NAMES[31] = "local";        // RTF_LOCAL 0x80000000
    }

    private static final long RTF_GATEWAY = 0x2;
    private static final long RTF_REJECT = 0x200;

    private RouteTable() {
    }

    static OrUnknown<List<Route>> readV4(Path file) {
        try {
            return parseV4(ProcFiles.text(file), file);
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(file, e));
        }
    }

    static OrUnknown<List<Route>> readV6(Path file) {
        try {
            return parseV6(ProcFiles.text(file), file);
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(file, e));
        }
    }

    /**
     * Iface, Destination, Gateway, Flags, RefCnt, Use, Metric, Mask, ...: fib_route_seq_show prints each __be32
     * address with %08X as a host-order integer, so on a little-endian host its bytes read backwards.
     */
    static OrUnknown<List<Route>> parseV4(String text, Path file) {
        List<Route> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int n = 1; n < lines.length; n++) {
            String line = lines[n].trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            try {
                if (f.length < 8) {
                    throw new IllegalArgumentException(f.length + " columns, expected 11");
                }
                Endpoint dst = v4(f[1]);
                long flags = Long.parseLong(f[3], 16);
                int mask = (int) v4(f[7]).lo();
                Endpoint gw = (flags & RTF_GATEWAY) != 0 ? v4(f[2]) : null;
                out.add(new Route(new InterfaceAddress(dst, Integer.bitCount(mask)), gw, f[0], Long.parseLong(f[6]), flags(flags)));
            } catch (IllegalArgumentException e) {
                return OrUnknown.unknown(file + " line " + (n + 1) + ": " + e.getMessage());
            }
        }
        out.sort(ORDER);
        return OrUnknown.known(List.copyOf(out));
    }

    /**
     * Destination, its length, source, its length, next hop, metric, refcount, use, flags, device; addresses in
     * 32 hex digits in network order (ipv6_route_native_seq_show).
     */
    static OrUnknown<List<Route>> parseV6(String text, Path file) {
        List<Route> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            try {
                if (f.length < 9) {
                    throw new IllegalArgumentException(f.length + " columns, expected 10");
                }
                long metric = Long.parseLong(f[5], 16);
                long flags = Long.parseLong(f[8], 16);
                int plen = Integer.parseInt(f[1], 16);
                Endpoint dst = v6(f[0]);
                if (plen == 0 && metric == 0xffffffffL && (flags & RTF_REJECT) != 0) {
                    // fib6_null_entry, the placeholder at each table's root; ip -6 route does not list it either.
                    continue;
                }
                Endpoint gw = (flags & RTF_GATEWAY) != 0 ? v6(f[4]) : null;
                String dev = f.length > 9 ? f[9] : "";
                out.add(new Route(new InterfaceAddress(dst, plen), gw, dev, metric, flags(flags)));
            } catch (IllegalArgumentException e) {
                return OrUnknown.unknown(file + " line " + (n + 1) + ": " + e.getMessage());
            }
        }
        out.sort(ORDER);
        return OrUnknown.known(List.copyOf(out));
    }

    private static final Comparator<Route> ORDER = Comparator.comparing(Route::destination)
            .thenComparingLong(Route::metric).thenComparing(Route::device)
            .thenComparing(r -> r.gateway() == null ? "" : r.gateway().address());

    private static Endpoint v4(String hex) {
        if (hex.length() != 8) {
            throw new IllegalArgumentException("not 8 hex digits: " + hex);
        }
        int v = (int) Long.parseLong(hex, 16);
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            v = Integer.reverseBytes(v);
        }
        return Endpoint.address(0, 0xffffL << 32 | (v & 0xffffffffL));
    }

    private static Endpoint v6(String hex) {
        if (hex.length() != 32) {
            throw new IllegalArgumentException("not 32 hex digits: " + hex);
        }
        return Endpoint.address(Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16), 16));
    }

    private static List<String> flags(long flags) {
        List<String> out = new ArrayList<>();
        for (int bit = 0; bit < 32; bit++) {
            if ((flags & (1L << bit)) != 0) {
                out.add(FLAG_NAMES[bit] != null ? FLAG_NAMES[bit] : String.format(java.util.Locale.ROOT, "0x%x", 1L << bit));
            }
        }
        return List.copyOf(out);
    }
}
