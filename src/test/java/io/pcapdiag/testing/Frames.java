package io.pcapdiag.testing;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import java.util.Arrays;

/** Frames built in memory, as a capture source would deliver them. */
public final class Frames {
    public static final Capture CAPTURE = new Capture(0, "test.pcap");

    private Frames() {
    }

    public static Frame frame(int linkType, byte[] data) {
        return frame(linkType, data, 0L, null);
    }

    public static Frame frame(int linkType, byte[] data, long nanos, String iface) {
        Frame f = new Frame();
        f.linkType = linkType;
        f.data = data;
        f.offset = 0;
        f.capLen = data.length;
        f.origLen = data.length;
        f.nanos = nanos;
        f.capture = CAPTURE;
        f.interfaceName = iface;
        f.number = 1;
        return f;
    }

    /**
     * The same frame placed at {@code lead} bytes into a larger array followed by {@code tail} bytes of
     * junk, so that a decoder reading past the captured length would see plausible bytes, not an
     * array bound.
     */
    public static Frame embedded(int linkType, byte[] data, int capLen, int lead, int tail) {
        byte[] big = new byte[lead + data.length + tail];
        Arrays.fill(big, (byte) 0x45);
        System.arraycopy(data, 0, big, lead, data.length);
        Frame f = frame(linkType, big);
        f.offset = lead;
        f.capLen = capLen;
        f.origLen = data.length;
        return f;
    }

    /** The first {@code capLen} bytes of {@code data} captured, as with a short snaplen. */
    public static Frame cut(int linkType, byte[] data, int capLen) {
        return embedded(linkType, data, capLen, 7, 64);
    }
}
