package io.pcapdiag.live;

import io.pcapdiag.capture.Capture;
import java.nio.file.Path;

/** Where live packets come from: an interface capture (or, in tests, frames made in memory). */
interface PacketSource {
    /** The capture evidence names: the interface, {@code ~N} when it came back. */
    Capture capture();

    String device();

    /** LINKTYPE_* of every packet it delivers. */
    int linkType();

    /** libpcap's counters so far. */
    CaptureStats stats();

    /** Its {@code --write} file, or null. */
    Path file();

    /** Why it ended on its own (the interface vanished), or null while capturing or after a normal stop. */
    String endReason();
}
