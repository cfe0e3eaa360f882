package io.pcapdiag.node;

import io.pcapdiag.capture.Bytes;
import io.pcapdiag.decode.Ip;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A bridge's forwarding database from /sys/class/net/BR/brforward: an array of struct __fdb_entry
 * (linux/if_bridge.h), 16 bytes each (the timer, in host byte order, is not kept):
 * <pre>
 *   __u8  mac_addr[6];  __u8 port_no;  __u8 is_local;  __u32 ageing_timer_value;
 *   __u8  port_hi;  __u8 pad0;  __u16 unused;
 * </pre>
 * The port number is {@code port_hi << 8 | port_no}. The kernel leaves out expired entries and those pointing at
 * the bridge device itself (br_fdb_fillbuf), so the bridge's own MAC may be absent.
 */
final class BridgeFdb {
    static final int ENTRY_SIZE = 16;

    private BridgeFdb() {
    }

    /** @param ports port number to interface name, for the bridge's ports */
    static OrUnknown<List<FdbEntry>> read(Path brforward, Map<Integer, String> ports) {
        byte[] b;
        try {
            b = ProcFiles.bytes(brforward);
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(brforward, e));
        }
        return parse(b, brforward, ports);
    }

    static OrUnknown<List<FdbEntry>> parse(byte[] b, Path file, Map<Integer, String> ports) {
        if (b.length % ENTRY_SIZE != 0) {
            return OrUnknown.unknown(file + ": " + b.length + " bytes, not a whole number of " + ENTRY_SIZE + "-byte entries");
        }
        List<FdbEntry> out = new ArrayList<>();
        for (int off = 0; off < b.length; off += ENTRY_SIZE) {
            long mac = (long) Bytes.u16be(b, off) << 32 | (Bytes.i32be(b, off + 2) & 0xffffffffL);
            int portNo = (b[off + 12] & 0xff) << 8 | (b[off + 6] & 0xff);
            boolean local = b[off + 7] != 0;
            out.add(new FdbEntry(Ip.mac(mac), portNo, ports.get(portNo), local));
        }
        out.sort(Comparator.comparing(FdbEntry::mac).thenComparingInt(FdbEntry::portNo));
        return OrUnknown.known(List.copyOf(out));
    }
}
