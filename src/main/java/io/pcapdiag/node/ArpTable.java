package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * IPv4 neighbours from /proc/net/arp (arp_format_neigh_entry): address, hardware type, flags, MAC, mask, device.
 * The flags are ATF_PERM|ATF_COM for a permanent entry, ATF_COM for any other valid one, 0 while unresolved.
 */
final class ArpTable {
    private static final int ATF_COM = 0x02;
    private static final int ATF_PERM = 0x04;

    private ArpTable() {
    }

    static OrUnknown<List<Neighbour>> read(Path file) {
        try {
            return parse(ProcFiles.text(file), file);
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(file, e));
        }
    }

    static OrUnknown<List<Neighbour>> parse(String text, Path file) {
        List<Neighbour> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int n = 1; n < lines.length; n++) { // line 0 is the header
            String line = lines[n].trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            try {
                if (f.length != 6) {
                    throw new IllegalArgumentException(f.length + " columns, expected 6");
                }
                long[] a = Ip.parse(f[0]);
                int flags = Integer.decode(f[2]);
                String state = (flags & ATF_PERM) != 0 ? "permanent" : (flags & ATF_COM) != 0 ? "complete" : "incomplete";
                out.add(new Neighbour(Endpoint.address(a[0], a[1]), f[3].toLowerCase(java.util.Locale.ROOT), f[5], state));
            } catch (IllegalArgumentException e) {
                return OrUnknown.unknown(file + " line " + (n + 1) + ": " + e.getMessage());
            }
        }
        out.sort(Comparator.comparing(Neighbour::address).thenComparing(Neighbour::device));
        return OrUnknown.known(List.copyOf(out));
    }
}
