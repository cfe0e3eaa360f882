package io.pcapdiag.testing;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/** Link-layer headers (tcpdump.org/linktypes.html) around a network packet. */
public final class LinkBuilder {
    public static final int LINKTYPE_NULL = 0;
    public static final int LINKTYPE_ETHERNET = 1;
    public static final int LINKTYPE_RAW = 101;
    public static final int LINKTYPE_LOOP = 108;
    public static final int LINKTYPE_LINUX_SLL = 113;
    public static final int LINKTYPE_IPV4 = 228;
    public static final int LINKTYPE_IPV6 = 229;
    public static final int LINKTYPE_LINUX_SLL2 = 276;

    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int ETHERTYPE_IPV6 = 0x86dd;
    public static final int TPID_8021Q = 0x8100;
    public static final int TPID_8021AD = 0x88a8;
    public static final int TPID_QINQ_OLD = 0x9100;

    public static final int AF_INET = 2;
    public static final int AF_INET6_LINUX = 10;
    public static final int AF_INET6_BSD = 24;
    public static final int AF_INET6_FREEBSD = 28;
    public static final int AF_INET6_DARWIN = 30;

    /** Packet types of the cooked headers. */
    public static final int PACKET_HOST = 0;
    public static final int PACKET_OUTGOING = 4;
    public static final int ARPHRD_ETHER = 1;
    public static final int ARPHRD_LOOPBACK = 772;
    public static final int ARPHRD_NONE = 0xfffe;

    public static final long MAC_A = 0x0242ac110002L;
    public static final long MAC_B = 0x0242ac110003L;

    private LinkBuilder() {
    }

    /** The ethertype for a raw IP packet, from its version nibble. */
    public static int ethertypeOf(byte[] ip) {
        return (ip[0] & 0xf0) == 0x60 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4;
    }

    public static Ethernet ethernet() {
        return new Ethernet();
    }

    /** Ethernet II from MAC_A to MAC_B. */
    public static byte[] ethernet(byte[] ip) {
        return new Ethernet().payload(ip);
    }

    /** Ethernet II with optional 802.1Q / 802.1ad tags, outermost first, and optional padding. */
    public static final class Ethernet {
        private long dst = MAC_B;
        private long src = MAC_A;
        private final List<int[]> tags = new ArrayList<>();
        private Integer type;
        private int minLength;

        public Ethernet dst(long mac) {
            dst = mac;
            return this;
        }

        public Ethernet src(long mac) {
            src = mac;
            return this;
        }

        public Ethernet tag(int tpid, int vlanId) {
            tags.add(new int[] {tpid, vlanId & 0x0fff});
            return this;
        }

        public Ethernet type(int ethertype) {
            type = ethertype;
            return this;
        }

        /** Pads the frame with zeros to {@code n} bytes (60 is Ethernet's minimum without FCS). */
        public Ethernet padTo(int n) {
            minLength = n;
            return this;
        }

        public byte[] payload(byte[] ip) {
            Buf b = new Buf().bytes(Addresses.macBytes(dst)).bytes(Addresses.macBytes(src));
            for (int[] t : tags) {
                b.u16(t[0]).u16(t[1]);
            }
            b.u16(type != null ? type : ethertypeOf(ip)).bytes(ip);
            while (b.size() < minLength) {
                b.u8(0);
            }
            return b.toByteArray();
        }
    }

    /** Linux cooked v1 (LINKTYPE_LINUX_SLL, 16 bytes). */
    public static byte[] sll(int packetType, int arphrd, byte[] address, int protocol, byte[] payload) {
        byte[] addr = new byte[8];
        System.arraycopy(address, 0, addr, 0, Math.min(8, address.length));
        return new Buf().u16(packetType).u16(arphrd).u16(address.length).bytes(addr).u16(protocol).bytes(payload)
                .toByteArray();
    }

    /** Linux cooked v1 with an Ethernet source address. */
    public static byte[] sll(long srcMac, byte[] ip) {
        return sll(PACKET_HOST, ARPHRD_ETHER, Addresses.macBytes(srcMac), ethertypeOf(ip), ip);
    }

    /** Linux cooked v2 (LINKTYPE_LINUX_SLL2, 20 bytes). */
    public static byte[] sll2(int protocol, int ifIndex, int arphrd, int packetType, byte[] address, byte[] payload) {
        byte[] addr = new byte[8];
        System.arraycopy(address, 0, addr, 0, Math.min(8, address.length));
        return new Buf().u16(protocol).u16(0).u32(ifIndex).u16(arphrd).u8(packetType).u8(address.length).bytes(addr)
                .bytes(payload).toByteArray();
    }

    public static byte[] sll2(long srcMac, byte[] ip) {
        return sll2(ethertypeOf(ip), 3, ARPHRD_ETHER, PACKET_HOST, Addresses.macBytes(srcMac), ip);
    }

    /** BSD loopback (LINKTYPE_NULL): the address family in the capturing host's byte order. */
    public static byte[] bsdNull(int family, ByteOrder order, byte[] ip) {
        return new Buf(order).u32(family).bytes(ip).toByteArray();
    }

    /** OpenBSD loopback (LINKTYPE_LOOP): the family always big-endian. */
    public static byte[] loop(int family, byte[] ip) {
        return new Buf(ByteOrder.BIG_ENDIAN).u32(family).bytes(ip).toByteArray();
    }
}
