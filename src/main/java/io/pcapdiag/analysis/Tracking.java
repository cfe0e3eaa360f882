package io.pcapdiag.analysis;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.track.HandshakeTracker;

/**
 * Where {@link Analysis}'s pipeline hands each decoded packet: the tracker on the same thread ({@link #direct}), or
 * the tracker's own thread ({@link TrackingThread}). Either way the tracker sees the packets it {@link
 * HandshakeTracker#concerns concerns} in the order they were read, each after its clock has reached the latest
 * capture time read before it, so attempts are decided at the same points and the findings are the same.
 */
interface Tracking {
    /** The view to decode the next packet into. */
    PacketView view();

    /** The packet just decoded into {@link #view()} concerns the tracker. */
    void observe(Frame f);

    /** A packet the tracker need not see was read at {@code nanos}: capture time moved on. */
    void advanceClock(long nanos);

    /** Every packet is read: the tracker has caught up with the last of them when this returns. */
    void finish();

    /** The tracker on the calling thread, decoding into {@code view}. */
    static Tracking direct(HandshakeTracker tracker, PacketView view) {
        return new Tracking() {
            @Override
            public PacketView view() {
                return view;
            }

            @Override
            public void observe(Frame f) {
                tracker.observe(f, view);
            }

            @Override
            public void advanceClock(long nanos) {
                tracker.advanceClock(nanos);
            }

            @Override
            public void finish() {
                // every packet went to the tracker as it was read
            }
        };
    }
}
