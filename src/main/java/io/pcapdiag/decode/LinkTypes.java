package io.pcapdiag.decode;

import java.util.Map;

/**
 * The link-type dispatch table (tcpdump.org/linktypes.html): which decoder strips which link header.
 * A link decoder returns the offset of the network header and leaves its protocol in {@link Cursor}'s
 * {@code netType} (an ethertype, or {@link #BY_VERSION} when the version nibble tells), or -1.
 */
public final class LinkTypes {
    public static final int NULL = 0;
    public static final int ETHERNET = 1;
    public static final int RAW_OPENBSD = 12;
    public static final int RAW_BSD = 14;
    public static final int RAW = 101;
    public static final int LOOP = 108;
    public static final int LINUX_SLL = 113;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int LINUX_SLL2 = 276;

    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86dd;
    /** Pseudo ethertype: raw IP, the version nibble says which. */
    static final int BY_VERSION = -2;

    /** What {@link #strip} answers for a link type it does not know. */
    static final int UNSUPPORTED = Integer.MIN_VALUE;

    /** tcpdump's names of the link types {@link #strip} knows: these are the supported ones. */
    private static final Map<Integer, String> NAMES = Map.of(
            ETHERNET, "EN10MB", LINUX_SLL, "LINUX_SLL", LINUX_SLL2, "LINUX_SLL2", RAW, "RAW",
            RAW_OPENBSD, "RAW", RAW_BSD, "RAW", IPV4, "IPV4", IPV6, "IPV6", NULL, "NULL", LOOP, "LOOP");

    private LinkTypes() {
    }

    /**
     * Strips {@code linkType}'s header from the frame at {@code off}: the offset of the network header, -1, or
     * {@link #UNSUPPORTED}.
     */
    static int strip(int linkType, Cursor c, int off, PacketView v) {
        switch (linkType) {
            case ETHERNET:
                return ethernet(c, off, v);
            case LINUX_SLL:
                return linuxSll(c, off, v);
            case LINUX_SLL2:
                return linuxSll2(c, off, v);
            case RAW, RAW_OPENBSD, RAW_BSD, IPV4, IPV6:
                return raw(c, off, v);
            case NULL:
                return bsdNull(c, off, v);
            case LOOP:
                return bsdLoop(c, off, v);
            default:
                return UNSUPPORTED;
        }
    }

    public static boolean supported(int linkType) {
        return NAMES.containsKey(linkType);
    }

    /** tcpdump's name for a link type, e.g. {@code EN10MB}, or the number. */
    public static String name(int linkType) {
        return NAMES.getOrDefault(linkType, Integer.toString(linkType));
    }

    /** Ethernet II, with any number of 802.1Q / 802.1ad / QinQ tags. */
    private static int ethernet(Cursor c, int off, PacketView v) {
        if (!c.has(off, 14)) {
            return truncated(v);
        }
        v.dstMac = c.mac(off);
        v.srcMac = c.mac(off + 6);
        v.hasDstMac = true;
        v.hasSrcMac = true;
        return vlanTags(c, c.u16(off + 12), off + 14, v);
    }

    /** Follows VLAN tags from {@code o}, where a payload of {@code type} starts; returns the network header offset. */
    private static int vlanTags(Cursor c, int type, int o, PacketView v) {
        while (type == 0x8100 || type == 0x88a8 || type == 0x9100) {
            if (!c.has(o, 4)) {
                return truncated(v);
            }
            type = c.u16(o + 2);
            o += 4;
        }
        c.netType = type;
        return o;
    }

    /** Linux cooked v1: 16 bytes, the sender's link address when it has one. */
    private static int linuxSll(Cursor c, int off, PacketView v) {
        if (!c.has(off, 16)) {
            return truncated(v);
        }
        v.packetType = c.u16(off);
        cookedAddress(c, c.u16(off + 2), c.u16(off + 4), off + 6, v);
        return vlanTags(c, c.u16(off + 14), off + 16, v);
    }

    /** Linux cooked v2 (what {@code tcpdump -i any} writes today): 20 bytes, protocol first. */
    private static int linuxSll2(Cursor c, int off, PacketView v) {
        if (!c.has(off, 20)) {
            return truncated(v);
        }
        v.ifIndex = c.i32(off + 4);
        v.packetType = c.u8(off + 10);
        cookedAddress(c, c.u16(off + 8), c.u8(off + 11), off + 12, v);
        return vlanTags(c, c.u16(off), off + 20, v);
    }

    private static void cookedAddress(Cursor c, int arphrd, int addrLen, int at, PacketView v) {
        // ARPHRD_ETHER: the address is the source MAC (for outgoing packets, the interface's own).
        if (arphrd == 1 && addrLen == 6) {
            v.srcMac = c.mac(at);
            v.hasSrcMac = true;
        }
    }

    private static int raw(Cursor c, int off, PacketView v) {
        c.netType = BY_VERSION;
        return off;
    }

    /** BSD loopback: a 4-byte address family in the capturing host's byte order. */
    private static int bsdNull(Cursor c, int off, PacketView v) {
        if (!c.has(off, 4)) {
            return truncated(v);
        }
        int family = c.i32(off);
        if ((family & 0xffff) == 0) {
            family = Integer.reverseBytes(family);
        }
        return family(c, off, family);
    }

    /** OpenBSD loopback: the same family, always big-endian. */
    private static int bsdLoop(Cursor c, int off, PacketView v) {
        if (!c.has(off, 4)) {
            return truncated(v);
        }
        return family(c, off, c.i32(off));
    }

    private static int family(Cursor c, int off, int family) {
        // AF_INET is 2 everywhere; AF_INET6 is 10 (Linux), 24 (NetBSD/OpenBSD), 28 (FreeBSD), 30 (macOS).
        c.netType = switch (family) {
            case 2 -> ETHERTYPE_IPV4;
            case 10, 24, 28, 30 -> ETHERTYPE_IPV6;
            default -> 0;
        };
        return off + 4;
    }

    private static int truncated(PacketView v) {
        v.truncated = true;
        v.weird = Weird.TRUNCATED_LINK;
        return -1;
    }
}
