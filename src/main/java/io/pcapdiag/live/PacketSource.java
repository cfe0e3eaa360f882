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

    /**
     * Wall-clock time (nanoseconds since the epoch) when it last handed a packet over, or
     * {@code Long.MIN_VALUE}. A source that handed nothing over for a while has nothing older waiting:
     * libpcap in immediate mode delivers each packet as soon as the kernel has it.
     */
    long lastDelivery();

    /** True while it is handing a packet over (possibly waiting for room in the queue: it is not idle then). */
    boolean handingOver();

    /** Why it ended on its own (the interface vanished), or null while capturing or after a normal stop. */
    String endReason();
}
