package io.pcapdiag.check;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * JUnit XML, the report GitHub Actions (test-reporter actions), GitLab ({@code artifacts:reports:junit}) and
 * Jenkins ({@code junit} step) read: one test suite, one test case per capture, the diff as the failure.
 */
public final class JUnitXml {
    private JUnitXml() {
    }

    public static void write(Path file, List<Checker.Case> cases) throws IOException {
        try (OutputStream o = Files.newOutputStream(file)) {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(o, "UTF-8");
            long failures = cases.stream().filter(c -> c.status().failed()).count();
            String time = seconds(cases.stream().mapToLong(Checker.Case::nanos).sum());
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            suiteAttributes(x, cases.size(), failures, time);
            x.writeCharacters("\n  ");
            x.writeStartElement("testsuite");
            suiteAttributes(x, cases.size(), failures, time);
            x.writeAttribute("skipped", "0");
            for (Checker.Case c : cases) {
                x.writeCharacters("\n    ");
                x.writeStartElement("testcase");
                Path p = Path.of(c.capture());
                x.writeAttribute("classname", p.getParent() == null ? "." : p.getParent().toString());
                x.writeAttribute("name", p.getFileName().toString());
                x.writeAttribute("file", c.capture());
                x.writeAttribute("time", seconds(c.nanos()));
                if (c.status().failed()) {
                    x.writeCharacters("\n      ");
                    x.writeStartElement("failure");
                    x.writeAttribute("type", "pcapdiag check");
                    x.writeAttribute("message", clean(c.headline()));
                    x.writeCharacters(clean(c.message()));
                    x.writeEndElement();
                    x.writeCharacters("\n    ");
                } else if (!c.headline().isEmpty()) {
                    x.writeCharacters("\n      ");
                    x.writeStartElement("system-out");
                    x.writeCharacters(clean(c.headline()));
                    x.writeEndElement();
                    x.writeCharacters("\n    ");
                }
                x.writeEndElement();
            }
            x.writeCharacters("\n  ");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static void suiteAttributes(XMLStreamWriter x, long tests, long failures, String time)
            throws XMLStreamException {
        x.writeAttribute("name", "pcapdiag check");
        x.writeAttribute("tests", Long.toString(tests));
        x.writeAttribute("failures", Long.toString(failures));
        x.writeAttribute("errors", "0");
        x.writeAttribute("time", time);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }

    /** XML 1.0 cannot carry most control characters, even escaped: they become U+FFFD. */
    static String clean(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            boolean ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
                    || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
            b.appendCodePoint(ok ? cp : 0xFFFD);
        });
        return b.toString();
    }
}
