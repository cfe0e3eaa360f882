package io.pcapdiag.capture;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.MergedSource;
import java.util.Locale;

/** Which engine reads capture files. */
public enum Reader implements MergedSource.Opener {
    /** pcapdiag's own streaming reader: no native code, the fastest. */
    BUILTIN,
    /** libpcap through pcap4j (needs libpcap installed). */
    PCAP4J;

    @Override
    public FrameSource open(Capture capture) throws CaptureException {
        // Referencing the pcap4j source only in its own branch keeps JNA and pcap4j out of the builtin path's start-up.
        return this == BUILTIN ? CaptureFiles.open(capture) : io.pcapdiag.capture.Pcap4jFileSource.open(capture);
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
