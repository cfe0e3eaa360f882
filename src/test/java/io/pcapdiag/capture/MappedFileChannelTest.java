package io.pcapdiag.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.ReadAll;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records straddling the boundaries between mappings read exactly as through a plain file channel. */
class MappedFileChannelTest {
    @TempDir
    Path dir;

    @Test
    void recordsAcrossMappingBoundariesAreIntact() throws Exception {
        Random rnd = new Random(7);
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 500; i++) {
            byte[] data = new byte[1 + rnd.nextInt(300)];
            rnd.nextBytes(data);
            w.packet(1_700_000_000_000_000_000L + i * 1000L, data);
        }
        Path p = Files.write(dir.resolve("t.pcap"), w.toByteArray());
        Capture c = new Capture(0, p.toString());
        for (long chunk : new long[] {7, 333, 4096, 1 << 20}) {
            ReadAll plain;
            ReadAll mapped;
            try (FileChannel fc = FileChannel.open(p, StandardOpenOption.READ)) {
                plain = ReadAll.of(new PcapReader(c, new ByteInput(fc, 512)));
            }
            try (FileChannel fc = FileChannel.open(p, StandardOpenOption.READ)) {
                mapped = ReadAll.of(new PcapReader(c, new ByteInput(new MappedFileChannel(fc, chunk), 512)));
            }
            assertEquals(500, plain.frames.size());
            assertEquals(plain.frames.size(), mapped.frames.size(), "mapping size " + chunk);
            for (int i = 0; i < plain.frames.size(); i++) {
                ReadAll.Copy a = plain.frames.get(i);
                ReadAll.Copy b = mapped.frames.get(i);
                assertEquals(a.toString(), b.toString(), "mapping size " + chunk);
                assertArrayEquals(a.bytes(), b.bytes(), "frame " + a.number() + ", mapping size " + chunk);
            }
            assertEquals(plain.problems.size(), mapped.problems.size());
        }
    }
}
