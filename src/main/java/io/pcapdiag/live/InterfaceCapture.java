package io.pcapdiag.live;

import io.pcapdiag.capture.Capture;
import java.nio.file.Path;
import java.sql.Timestamp;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.RawPacketListener;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * One libpcap handle on one interface and the thread that reads it. The thread only hands over: it stamps
 * each packet (pcap4j has already copied its bytes out of libpcap's ring), gives it to the
 * {@code --write} file's {@link PcapWriterThread} and to the analysis thread through {@link LiveCapture}'s
 * bounded queue. When a queue is full it waits, the kernel buffer fills, and the kernel's drop counter
 * says so: back-pressure ends in a number the user sees, never in a silent loss, and the file and the
 * analysis always miss the same packets.
 */
final class InterfaceCapture implements PacketSource {
    /** libpcap's read timeout: how often a blocked read looks at the break flag, worst case. */
    static final int READ_TIMEOUT_MILLIS = 100;
    /** Linux cooked capture v2: carries the interface index, so {@code -i any} evidence can name the interface. */
    static final int DLT_LINUX_SLL2 = 276;

    final String device;
    final Capture capture;
    final Path file;
    final int linkType;
    private final PcapHandle handle;
    /** The {@code --write} file's writer, or null. */
    private final PcapWriterThread writer;
    private final LiveCapture owner;
    private final Thread thread;

    /** Packets admitted (capture thread only until it ends). */
    private long packets;
    private volatile long lastDelivery = Long.MIN_VALUE;
    private volatile boolean handingOver;
    private volatile boolean stopping;
    private volatile boolean ended;
    /** Why the capture ended on its own (the interface vanished, an error), or null. */
    private volatile String endReason;
    private CaptureStats stats = CaptureStats.NONE;
    private boolean closed;

    private InterfaceCapture(String device, Capture capture, Path file, PcapHandle handle, PcapWriterThread writer,
                             LiveCapture owner) {
        this.device = device;
        this.capture = capture;
        this.file = file;
        this.handle = handle;
        this.writer = writer;
        this.owner = owner;
        this.linkType = handle.getDlt().value();
        this.thread = new Thread(this::run, "capture-" + device);
        this.thread.setDaemon(true);
    }

    /** Opens {@code device}, installs the filter and the dumper, and starts its thread. */
    static InterfaceCapture open(String device, Capture capture, CaptureSettings s, Path file, LiveCapture owner)
            throws PcapNativeException, NotOpenException, java.io.IOException {
        PcapHandle handle = new PcapHandle.Builder(device)
                .snaplen(s.snaplen())
                .promiscuousMode(s.promiscuous() && !InterfacePatterns.ANY.equals(device)
                        ? PcapNetworkInterface.PromiscuousMode.PROMISCUOUS
                        : PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                .timeoutMillis(READ_TIMEOUT_MILLIS)
                .bufferSize(s.bufferSize())
                .immediateMode(true)
                .timestampPrecision(PcapHandle.TimestampPrecision.NANO)
                .build();
        PcapFileWriter dumper = null;
        try {
            if (InterfacePatterns.ANY.equals(device)) {
                try {
                    handle.setDlt(DataLinkType.getInstance(DLT_LINUX_SLL2));
                } catch (PcapNativeException e) {
                    // Older libpcap: keep cooked v1; only the interface name in evidence is lost.
                }
            }
            handle.setFilter(s.filter(), BpfProgram.BpfCompileMode.OPTIMIZE);
            if (file != null) {
                dumper = new PcapFileWriter(file, handle.getDlt().value(), s.snaplen(), s.force(), s.rotateBytes());
            }
            PcapWriterThread writer = dumper == null ? null : new PcapWriterThread(dumper, file, device);
            InterfaceCapture c = new InterfaceCapture(device, capture, file, handle, writer, owner);
            if (writer != null) {
                writer.start();
            }
            c.thread.start();
            return c;
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            if (dumper != null) {
                try {
                    dumper.close();
                } catch (java.io.IOException closing) {
                    e.addSuppressed(closing);
                }
            }
            handle.close();
            throw e;
        }
    }

    private void run() {
        RawPacketListener listener = this::gotPacket;
        try {
            handle.loop(-1, listener);
        } catch (InterruptedException e) {
            // pcap_breakloop: we were asked to stop.
        } catch (PcapNativeException e) {
            if (!stopping) {
                endReason = libpcapMessage(e);
            }
        } catch (NotOpenException e) {
            if (!stopping) {
                endReason = "the capture handle closed";
            }
        } catch (RuntimeException | Error e) {
            endReason = "capture thread failed: " + e;
        } finally {
            close();
            ended = true;
        }
    }

    /** Runs on the capture thread for every packet that passed the filter. Must not throw: pcap4j would only log it. */
    private void gotPacket(byte[] raw) {
        handingOver = true;
        try {
            if (!owner.admit()) {
                stopping = true;
                handle.breakLoop();
                return;
            }
            Timestamp ts = handle.getTimestamp();
            Integer orig = handle.getOriginalLength();
            long nanos = Math.floorDiv(ts.getTime(), 1000L) * 1_000_000_000L + ts.getNanos();
            packets++;
            Captured c = new Captured(this, nanos, raw, orig == null ? raw.length : orig, packets);
            if (writer != null) {
                writer.write(c);
            }
            owner.enqueue(c);
            lastDelivery = System.currentTimeMillis() * 1_000_000L;
        } catch (NotOpenException e) {
            stopping = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        } catch (RuntimeException e) {
            endReason = "capture thread failed: " + e;
            stopping = true;
            try {
                handle.breakLoop();
            } catch (NotOpenException ignored) {
                // Already closing.
            }
        } finally {
            handingOver = false;
        }
    }

    /** Asks the thread to stop; returns at once. */
    synchronized void stop() {
        stopping = true;
        if (!closed) {
            try {
                handle.breakLoop();
            } catch (NotOpenException ignored) {
                // Closed meanwhile: the thread is ending anyway.
            }
        }
    }

    /** Waits for the thread to end, at most {@code millis}; true if it has. */
    boolean join(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    boolean ended() {
        return ended;
    }

    @Override
    public String endReason() {
        return endReason;
    }

    @Override
    public long lastDelivery() {
        return lastDelivery;
    }

    @Override
    public boolean handingOver() {
        return handingOver;
    }

    @Override
    public Capture capture() {
        return capture;
    }

    @Override
    public String device() {
        return device;
    }

    @Override
    public int linkType() {
        return linkType;
    }

    @Override
    public Path file() {
        return file;
    }

    /** libpcap's counters as of now (or as of the end, once the handle is closed). */
    @Override
    public synchronized CaptureStats stats() {
        if (!closed) {
            try {
                var s = handle.getStats();
                stats = new CaptureStats(s.getNumPacketsReceived(), s.getNumPacketsDropped(), s.getNumPacketsDroppedByIf());
            } catch (PcapNativeException | NotOpenException e) {
                // The interface is going away; keep the last counters.
            }
        }
        return stats;
    }

    /** Why writing its {@code --write} file stopped, or null. */
    String writeFailure() {
        return writer == null ? null : writer.failure();
    }

    private void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            stats();
        }
        if (writer != null) {
            try {
                writer.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            closed = true;
            handle.close();
        }
    }

    static String libpcapMessage(PcapNativeException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        // pcap4j wraps libpcap's text: "Error occurred: <text>" or "<text> Return code: -1".
        m = m.replaceFirst("^Error occurred: ", "").replaceFirst(",? ?Return code: ?-?\\d+.*$", "").trim();
        return m.isEmpty() ? e.toString() : m;
    }
}
