package io.pcapdiag.live;

import io.pcapdiag.capture.Libpcap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether this process may open packet sockets. Linux requires CAP_NET_RAW for {@code socket(AF_PACKET)}
 * (packet(7)); root has it, a container has it only when its securityContext adds it.
 */
public final class Privileges {
    /** capability.h: CAP_NET_ADMIN = 12, CAP_NET_RAW = 13. */
    static final int CAP_NET_ADMIN = 12;
    static final int CAP_NET_RAW = 13;

    public static final String NO_CAPTURE_PRIVILEGE = "capturing needs root or the CAP_NET_RAW capability, which this"
            + " process does not have: run it as root (sudo), or in a container add NET_RAW (docker run --cap-add NET_RAW;"
            + " in Kubernetes securityContext.capabilities.add: [NET_RAW], see src/main/kubernetes)";

    private Privileges() {
    }

    /** True when /proc says this process lacks CAP_NET_RAW; false when it has it or nobody can tell. */
    public static boolean lacksNetRaw() {
        Long eff = effectiveCapabilities(Path.of("/proc/self/status"));
        return eff != null && (eff & (1L << CAP_NET_RAW)) == 0;
    }

    /** The CapEff bit mask of a /proc/PID/status file, or null when it cannot be read. */
    static Long effectiveCapabilities(Path status) {
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
                if (line.startsWith("CapEff:")) {
                    return Long.parseUnsignedLong(line.substring(7).trim(), 16);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return null;
        }
        return null;
    }

    /** libpcap's words for a refused packet socket. */
    static boolean isPermissionError(String libpcapMessage) {
        String m = libpcapMessage.toLowerCase(Locale.ROOT);
        return m.contains("operation not permitted") || m.contains("permission");
    }

    /** Why capture cannot work here at all (no CAP_NET_RAW, no libpcap), in one line, or null. */
    public static String cannotCapture() {
        if (lacksNetRaw()) {
            return NO_CAPTURE_PRIVILEGE;
        }
        try {
            org.pcap4j.core.Pcaps.libVersion();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return Libpcap.MISSING;
        }
        return null;
    }
}
