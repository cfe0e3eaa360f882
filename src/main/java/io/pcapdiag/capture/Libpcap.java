package io.pcapdiag.capture;

/** The one line shown when a pcap4j path needs libpcap and the machine has none. */
public final class Libpcap {
    public static final String MISSING =
            "this needs libpcap, which is not installed: apt-get install libpcap0.8 (Debian/Ubuntu) or dnf install libpcap";

    private Libpcap() {
    }
}
