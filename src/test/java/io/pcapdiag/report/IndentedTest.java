package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The report's layout is Jackson's default pretty printer's, byte for byte: on random documents of objects and arrays
 * nested up to 24 levels (past the indentation {@link Indented} prepares at first), empty ones, and every kind of value.
 */
class IndentedTest {
    /** Writes a random value of {@code depth} levels at most, the same for the same seed. */
    private static void value(JsonGenerator g, Random r, int depth) throws IOException {
        int kind = depth == 0 ? 2 + r.nextInt(4) : r.nextInt(6);
        switch (kind) {
            case 0 -> {
                g.writeStartObject();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    g.writeFieldName("k" + i);
                    value(g, r, depth - 1);
                }
                g.writeEndObject();
            }
            case 1 -> {
                g.writeStartArray();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    value(g, r, depth - 1);
                }
                g.writeEndArray();
            }
            case 2 -> g.writeString("s\"" + r.nextInt(100));
            case 3 -> g.writeNumber(r.nextLong());
            case 4 -> g.writeBoolean(r.nextBoolean());
            default -> g.writeNull();
        }
    }

    private static String write(PrettyPrinter p, long seed, int depth) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JsonReporter.FACTORY.createGenerator(w)) {
            g.setPrettyPrinter(p);
            Random r = new Random(seed);
            // Two root values, for the separator between them; the first an object, as the report's.
            g.writeStartObject();
            g.writeFieldName("first");
            value(g, r, depth);
            g.writeEndObject();
            value(g, r, depth);
        }
        return w.toString();
    }

    @Test
    void theDefaultPrinterLayoutOnRandomDocuments() throws IOException {
        for (long seed = 0; seed < 2000; seed++) {
            int depth = (int) (seed % 25);
            assertEquals(write(new DefaultPrettyPrinter(), seed, depth), write(new Indented(), seed, depth), "seed " + seed);
        }
    }

    @Test
    void deepObjectsPastThePreparedIndentation() throws IOException {
        StringWriter a = new StringWriter();
        StringWriter b = new StringWriter();
        for (StringWriter w : new StringWriter[] {a, b}) {
            try (JsonGenerator g = JsonReporter.FACTORY.createGenerator(w)) {
                g.setPrettyPrinter(w == a ? new DefaultPrettyPrinter() : new Indented());
                for (int i = 0; i < 30; i++) {
                    g.writeStartObject();
                    g.writeNumberField("level", i);
                    g.writeFieldName("next");
                }
                g.writeStartObject();
                g.writeEndObject();
                for (int i = 0; i < 30; i++) {
                    g.writeEndObject();
                }
            }
        }
        assertEquals(a.toString(), b.toString());
    }
}
