package io.pcapdiag.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import java.io.IOException;
import java.util.Arrays;

/**
 * The JSON report's layout, as Jackson's {@code DefaultPrettyPrinter} lays it out: an object's entries each on a
 * line of its own, indented two spaces a level, {@code "name" : value}; an array's values on the line of its opening
 * bracket, {@code [ a, b ]}; an empty object or array {@code { }}, {@code [ ]}. The same bytes (IndentedTest,
 * JsonWriterTest, the goldens), in fewer and cheaper calls: the comma, the line's end and the indentation of an
 * entry in one {@code writeRaw} of a prepared array, where the default printer makes three, and the name's separator
 * from an array, where the default copies it out of a string each time. The bench trace's report of 1,000 findings
 * has 83,067 entries: the printer's CPU samples 8 -> 4 a run (PERFORMANCE.md).
 */
final class Indented implements PrettyPrinter {
    private static final String EOL = System.lineSeparator();
    private static final char[] NAME_SEPARATOR = {' ', ':', ' '};
    private static final char[] ARRAY_SEPARATOR = {',', ' '};

    /** A comma, the line's end, and the indentation of {@link #levels} levels: an entry at level n writes a prefix. */
    private char[] entry;
    private int levels;
    private int level;

    Indented() {
        grow(8);
    }

    private void grow(int to) {
        levels = to;
        entry = new char[1 + EOL.length() + 2 * to];
        Arrays.fill(entry, ' ');
        entry[0] = ',';
        EOL.getChars(0, EOL.length(), entry, 1);
    }

    /** The line's end and the indentation of the current level, after a comma or not. */
    private void newLine(JsonGenerator g, boolean comma) throws IOException {
        if (level > levels) {
            grow(2 * level);
        }
        int end = 1 + EOL.length() + 2 * level;
        if (comma) {
            g.writeRaw(entry, 0, end);
        } else {
            g.writeRaw(entry, 1, end - 1);
        }
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(' ');
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
        g.writeRaw('{');
        level++;
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
        newLine(g, false);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(NAME_SEPARATOR, 0, 3);
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
        newLine(g, true);
    }

    @Override
    public void writeEndObject(JsonGenerator g, int entries) throws IOException {
        level--;
        if (entries > 0) {
            newLine(g, false);
        } else {
            g.writeRaw(' ');
        }
        g.writeRaw('}');
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
        g.writeRaw('[');
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) throws IOException {
        g.writeRaw(' ');
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(ARRAY_SEPARATOR, 0, 2);
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
        g.writeRaw(' ');
        g.writeRaw(']');
    }
}
