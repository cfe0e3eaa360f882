package io.pcapdiag.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The /proc and sysfs formats where the namespace test cannot reach every case: several CPUs' conntrack lines,
 * bridge ports above 255, a file whose lines disagree. The texts are in the kernel's exact layout.
 */
class ProcParsersTest {
    private static final Path FILE = Path.of("/proc/net/x");

    @Test
    void conntrackStatSumsCpusButNotEntries() {
        String text = """
                entries  clashres found new invalid ignore delete chainlength insert insert_failed drop early_drop icmp_error  expect_new expect_create expect_delete search_restart
                0000002a  00000000 00000010 00000000 00000003 00000000 00000000 00000000 00000000 00000001 00000000 00000000 00000000  00000000 00000000 00000000 00000000
                0000002a  00000001 00000020 00000000 00000004 00000000 00000000 00000000 00000000 0000000f 00000002 00000000 00000000  00000000 00000000 00000000 00000001
                """;
        SortedMap<String, Long> m = ConntrackStat.parse(text, FILE).value();
        assertEquals(42L, m.get("entries"), "the table's size, printed on every CPU's line");
        assertEquals(0x30L, m.get("found"));
        assertEquals(16L, m.get("insert_failed"));
        assertEquals(2L, m.get("drop"));
        assertEquals(17, m.size());
        assertEquals("/proc/net/x line 2: 3 values for 17 columns",
                ConntrackStat.parse(text.replace("0000002a  00000000 00000010 00000000 00000003 00000000 00000000 00000000 00000000 00000001 00000000 00000000 00000000  00000000 00000000 00000000 00000000",
                        "1 2 3"), FILE).reason());
    }

    @Test
    void fdbEntriesWithHighPortNumbers() {
        byte[] b = new byte[2 * BridgeFdb.ENTRY_SIZE];
        byte[] mac1 = {0x0a, 0x58, 0x0a, (byte) 0xf4, 0, 2};
        System.arraycopy(mac1, 0, b, 0, 6);
        b[6] = 0x2c; // port_no low byte
        b[12] = 0x01; // port_hi: port 300
        byte[] mac2 = {2, 0, 0, 0, 0, 1};
        System.arraycopy(mac2, 0, b, 16, 6);
        b[16 + 6] = 1;
        b[16 + 7] = 1; // is_local
        List<FdbEntry> l = BridgeFdb.parse(b, FILE, Map.of(300, "veth300")).value();
        assertEquals(List.of(new FdbEntry("02:00:00:00:00:01", 1, null, true), new FdbEntry("0a:58:0a:f4:00:02", 300, "veth300", false)), l);
        assertEquals("/proc/net/x: 20 bytes, not a whole number of 16-byte entries", BridgeFdb.parse(new byte[20], FILE, Map.of()).reason());
        byte[] high = new byte[BridgeFdb.ENTRY_SIZE]; // every byte of the MAC with its top bit set
        System.arraycopy(new byte[] {(byte) 0xfe, (byte) 0x80, (byte) 0x90, (byte) 0xa0, (byte) 0xb0, (byte) 0xff}, 0, high, 0, 6);
        assertEquals("fe:80:90:a0:b0:ff", BridgeFdb.parse(high, FILE, Map.of()).value().get(0).mac());
    }

    @Test
    void arpStates() {
        String text = """
                IP address       HW type     Flags       HW address            Mask     Device
                10.244.0.9       0x1         0x6         02:00:00:00:00:09     *        cbr0
                10.244.0.2       0x1         0x2         0A:58:0A:F4:00:02     *        cbr0
                10.244.0.5       0x1         0x0         00:00:00:00:00:00     *        cbr0
                """;
        List<Neighbour> n = ArpTable.parse(text, FILE).value();
        assertEquals(List.of("10.244.0.2 complete 0a:58:0a:f4:00:02", "10.244.0.5 incomplete 00:00:00:00:00:00",
                "10.244.0.9 permanent 02:00:00:00:00:09"), n.stream().map(x -> x.address() + " " + x.state() + " " + x.mac()).toList());
    }

    @Test
    void ipv4RoutesAreHostOrderHex() {
        boolean le = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        String text = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
                + "cbr0\t" + (le ? "007100CB" : "CB007100") + "\t" + (le ? "030010AC" : "AC100003") + "\t0003\t0\t0\t7\t"
                + (le ? "00FFFFFF" : "FFFFFF00") + "\t0\t0\t0\n";
        Route r = RouteTable.parseV4(text, FILE).value().get(0);
        assertEquals("203.0.113.0/24 via 172.16.0.3 dev cbr0 metric 7 [up, gateway]",
                r.destination() + " via " + r.gateway() + " dev " + r.device() + " metric " + r.metric() + " " + r.flags());
    }

    @Test
    void ipv6RoutesSkipTheNullEntry() {
        String text = "20010db8000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n"
                + "00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n";
        List<Route> l = RouteTable.parseV6(text, FILE).value();
        assertEquals(1, l.size());
        assertEquals("2001:db8::/64", l.get(0).destination().toString());
        assertNull(l.get(0).gateway());
    }

    @Test
    void nstatKeysAndAMismatchedFile() {
        TreeMap<String, Long> out = new TreeMap<>();
        assertNull(Nstat.parsePairs("Tcp: RtoAlgorithm MaxConn ActiveOpens\nTcp: 1 -1 18446744073709551615\n"
                + "IpExt: InNoRoutes\nIpExt: 4\n", FILE, out));
        assertEquals(Map.of("TcpRtoAlgorithm", 1L, "TcpMaxConn", -1L, "TcpActiveOpens", -1L, "IpExtInNoRoutes", 4L), out,
                "2^64-1 is kept as its bits; the delta of two readings is still right");
        assertEquals("/proc/net/x line 2: its values do not match the names of line 1",
                Nstat.parsePairs("Tcp: A B\nTcp: 1\n", FILE, new TreeMap<>()));
        TreeMap<String, Long> six = new TreeMap<>();
        assertNull(Nstat.parseFlat("Ip6InReceives                   \t12\nIp6InNoRoutes                   \t3\n", FILE, six));
        assertEquals(Map.of("Ip6InReceives", 12L, "Ip6InNoRoutes", 3L), six);
    }
}
