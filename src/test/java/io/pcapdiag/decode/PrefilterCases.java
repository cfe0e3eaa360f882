package io.pcapdiag.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.testing.Frames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The prefilter held to the full decoder on random frames: it may take a frame as a plain segment only when the decoder
 * calls it a TCP segment without SYN, RST or anomaly, as a plain other packet only when the decoder calls it a packet
 * of no interest without anomaly, and it must take every well-formed frame of the kind a test builds. Each frame is
 * placed in a larger array of junk or at the very end of one, so that a read past the captured length shows (as a
 * wrong answer, or as an exception).
 */
final class PrefilterCases {
    /** One random frame, and whether it is well formed: the prefilter must then answer the test's {@code expected}. */
    record Case(int linkType, byte[] bytes, int capLen, boolean mustTake, String how) {
    }

    private PrefilterCases() {
    }

    /** Checks 20,000 frames from {@code cases}, seeded with {@code seed}; the well-formed ones must be {@code expected}. */
    static void check(long seed, Function<Random, Case> cases, int expected) {
        Random r = new Random(seed);
        Decoder decoder = new Decoder();
        PacketView v = new PacketView();
        List<String> wrong = new ArrayList<>();
        int taken = 0;
        int mustTake = 0;
        for (int i = 0; i < 20_000; i++) {
            Case c = cases.apply(r);
            Frame f = r.nextBoolean()
                    ? Frames.embedded(c.linkType(), c.bytes(), c.capLen(), r.nextInt(9), 64)
                    : Frames.embedded(c.linkType(), Arrays.copyOf(c.bytes(), c.capLen()), c.capLen(), r.nextInt(9), 0);
            int pre = Prefilter.classify(f);
            PacketView.Kind kind = decoder.decode(f, v);
            boolean segment = kind == PacketView.Kind.TCP && v.weird == null && !v.has(PacketView.SYN)
                    && !v.has(PacketView.RST);
            boolean other = kind == PacketView.Kind.OTHER && v.weird == null;
            if ((pre == Prefilter.PLAIN_SEGMENT && !segment || pre == Prefilter.PLAIN_OTHER && !other) && wrong.size() < 10) {
                wrong.add("took as " + (pre == Prefilter.PLAIN_SEGMENT ? "a plain segment" : "plain other") + " a " + kind
                        + " weird=" + v.weird + " (" + c.how() + ")");
            }
            if (c.mustTake() && pre != expected && wrong.size() < 10) {
                wrong.add("did not take a well-formed frame (" + c.how() + ")");
            }
            taken += pre == expected ? 1 : 0;
            mustTake += c.mustTake() ? 1 : 0;
        }
        assertEquals(List.of(), wrong);
        assertTrue(mustTake > 5_000 && taken >= mustTake, taken + " taken, " + mustTake + " well formed");
    }

    /** Cut anywhere, or (half the time) within the first {@code headers} bytes, where each length check guards a read. */
    static int cut(Random r, int length, int headers) {
        return r.nextBoolean() ? r.nextInt(length) : Math.min(length - 1, 14 + r.nextInt(headers));
    }
}
