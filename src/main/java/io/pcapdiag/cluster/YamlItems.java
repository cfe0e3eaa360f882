package io.pcapdiag.cluster;

import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.comments.CommentLine;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.ComposerException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * A YAML snapshot read as snakeyaml-engine's {@link Load} reads it, document by document from a {@link Reader}, with
 * one difference: the {@code items} of a document's top-level mapping (a {@code List}, as {@code kubectl get -o yaml}
 * writes one) are handed over one at a time as each is read, each constructed on its own, and the document keeps an
 * empty sequence in their place. {@code kubectl get pods -A -o yaml} is a single document; read whole, its tree and
 * objects are several times the file, and snakeyaml-engine refuses a document over 3 MiB code points by default.
 * An {@code items} sequence with an anchor or a tag of its own, or in a document whose top-level mapping has an
 * anchor, is read whole as before (an alias could name it).
 *
 * <p>A YAML file is held to the limits a JSON one is ({@link StreamReadConstraints#defaults()}, which the JSON
 * snapshots are read with): nesting no deeper than 1,000 levels, no scalar (and no line) longer than 20,000,000
 * characters. YAML can say more than JSON can, and that is bounded too: an alias inside the node it names (a structure
 * that contains itself, which no JSON document can be) fails the file, and so do aliases that would nest past the depth
 * or repeat more than {@link #MAX_REPEATED} values in one document. Each is a {@link Limit}: the file is not read,
 * where a {@link StackOverflowError} or a heap filled with copies ended the run.
 */
final class YamlItems {
    /** The deepest nesting of collections, as JSON's. */
    static final int MAX_DEPTH = StreamReadConstraints.defaults().getMaxNestingDepth();
    /** The longest scalar, and line, as JSON's longest string. */
    static final int MAX_SCALAR = StreamReadConstraints.defaults().getMaxStringLength();
    /**
     * Values that aliases may repeat in one document. kubectl writes no aliases; a hand-written snapshot repeats a few
     * labels. Each repeated value becomes a node of its own when the document is converted.
     */
    static final int MAX_REPEATED = 100_000;
    /**
     * Characters the reader reads at a time. The scanner looks ahead through a token by copying what it holds each
     * time it reads more: with the default 1,024 a scalar of n characters costs n squared / 2,048 copies (4 MB took
     * 11 s); read 64 Ki at a time, 64 times fewer (a 4 MB scalar about 0.3 s, the longest a line may be a few
     * seconds), and the first item of a List still comes before most of a file of a MB is read.
     */
    private static final int BUFFER = 64 << 10;

    /** A file past one of the limits: the sentence and the line (from 1) where it was found. */
    static final class Limit extends YamlEngineException {
        private static final long serialVersionUID = 1L;
        private final int line;

        Limit(String message, int line) {
            super(message);
            this.line = line;
        }

        Limit(String message, Optional<Mark> at) {
            this(message, at.map(m -> m.getLine() + 1).orElse(1));
        }

        int line() {
            return line;
        }
    }

    /** Where each item goes: its index in the sequence and the Java object constructed from it. */
    interface Items {
        void item(int index, Object item);
    }

    private YamlItems() {
    }

    /**
     * The documents of a YAML stream, each constructed as {@link Load#loadAllFromReader} constructs it, with no limit
     * on a document's size (snakeyaml-engine's default is 3 MiB code points; read as they come, items need none).
     */
    static Iterator<Object> documents(String label, Reader reader, Items items) {
        LoadSettings settings = LoadSettings.builder().setLabel(label).setCodePointLimit(Integer.MAX_VALUE)
                .setBufferSize(BUFFER).build();
        Parser parser = new Limited(new ParserImpl(settings, new StreamReader(settings, new Lines(reader))));
        Composer composer = new Streaming(settings, parser, items);
        StandardConstructor constructor = new StandardConstructor(settings);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return composer.hasNext();
            }

            @Override
            public Object next() {
                return constructor.constructSingleDocument(Optional.of(composer.next()));
            }
        };
    }

    /** snakeyaml-engine's composer, but for the top-level {@code items}: composed, constructed and handed over one by one. */
    private static final class Streaming extends Composer {
        private final LoadSettings settings;
        private final Items items;
        private final StandardConstructor constructor;
        /** Nodes by anchor, as the composer's own map holds them (it is private): for an item that is an alias. */
        private final Map<Anchor, Node> anchors = new HashMap<>();
        /** Collections open around the node being composed: 1 inside a document's top-level mapping. */
        private int depth;
        private boolean anchoredRoot;
        private String key;
        private boolean streamNext;
        /** Items that are aliases of a collection, held to the same limit as the composer's count of the others. */
        private int aliases;

        Streaming(LoadSettings settings, Parser parser, Items items) {
            super(settings, parser);
            this.settings = settings;
            this.items = items;
            this.constructor = new StandardConstructor(settings);
        }

        @Override
        public Node next() {
            Node document = super.next();
            anchors.clear();
            return document;
        }

        @Override
        protected Node composeMappingNode(Optional<Anchor> anchor) {
            if (depth == 0) {
                anchoredRoot = anchor.isPresent();
            }
            depth++;
            try {
                return remember(anchor, super.composeMappingNode(anchor));
            } finally {
                depth--;
            }
        }

        @Override
        protected Node composeScalarNode(Optional<Anchor> anchor, List<CommentLine> comments) {
            return remember(anchor, super.composeScalarNode(anchor, comments));
        }

        @Override
        protected Node composeKeyNode(MappingNode node) {
            Node k = super.composeKeyNode(node);
            key = depth == 1 && k instanceof ScalarNode s ? s.getValue() : null;
            return k;
        }

        @Override
        protected Node composeValueNode(MappingNode node) {
            if (depth == 1 && "items".equals(key) && !anchoredRoot && parser.checkEvent(Event.ID.SequenceStart)) {
                CollectionStartEvent start = (CollectionStartEvent) parser.peekEvent();
                streamNext = start.getAnchor().isEmpty() && start.getTag().isEmpty();
            }
            key = null;
            return super.composeValueNode(node);
        }

        @Override
        protected SequenceNode composeSequenceNode(Optional<Anchor> anchor) {
            if (!streamNext) {
                depth++;
                try {
                    return (SequenceNode) remember(anchor, super.composeSequenceNode(anchor));
                } finally {
                    depth--;
                }
            }
            streamNext = false;
            Event start = parser.next();
            int i = 0;
            while (!parser.checkEvent(Event.ID.SequenceEnd)) {
                items.item(i++, constructor.constructSingleDocument(Optional.of(item())));
            }
            Event end = parser.next();
            return new SequenceNode(Tag.SEQ, true, List.of(), FlowStyle.AUTO,
                    start.getStartMark(), end.getEndMark());
        }

        /** One item of the sequence, composed as the composer composes any node. */
        private Node item() {
            if (parser.checkEvent(Event.ID.Alias)) {
                AliasEvent a = (AliasEvent) parser.next();
                Node n = anchors.get(a.getAlias());
                if (n == null) {
                    throw new ComposerException("found undefined alias " + a.getAlias(), a.getStartMark());
                }
                if (!(n instanceof ScalarNode) && ++aliases > settings.getMaxAliasesForCollections()) {
                    throw new YamlEngineException("Number of aliases for non-scalar nodes exceeds the specified max="
                            + settings.getMaxAliasesForCollections());
                }
                return n;
            }
            Optional<Anchor> anchor = ((NodeEvent) parser.peekEvent()).getAnchor();
            if (parser.checkEvent(Event.ID.Scalar)) {
                return composeScalarNode(anchor, List.of());
            }
            if (parser.checkEvent(Event.ID.SequenceStart)) {
                return composeSequenceNode(anchor);
            }
            return composeMappingNode(anchor);
        }

        private Node remember(Optional<Anchor> anchor, Node node) {
            anchor.ifPresent(a -> anchors.put(a, node));
            return node;
        }
    }

    /**
     * The parser's events, held to the limits before the composer (which recurses per level) and the conversion (which
     * copies an alias's node at each use) see them: depth, scalar length, an alias of a node still open, what aliases
     * repeat. Every event the composer takes passes {@link #next}.
     */
    private static final class Limited implements Parser {
        private final Parser parser;
        /** The collections open around the next event: their anchor (or null), height and values so far. */
        private final Deque<Open> open = new ArrayDeque<>();
        /** The height and values of each anchored node of the document, once closed. */
        private final Map<Anchor, Shape> shapes = new HashMap<>();
        private long repeated;

        private static final class Open {
            final Anchor anchor;
            int height;
            long values = 1;

            Open(Anchor anchor) {
                this.anchor = anchor;
            }
        }

        private record Shape(int height, long values) {
        }

        Limited(Parser parser) {
            this.parser = parser;
        }

        @Override
        public boolean checkEvent(Event.ID id) {
            return parser.checkEvent(id);
        }

        @Override
        public Event peekEvent() {
            return parser.peekEvent();
        }

        @Override
        public boolean hasNext() {
            return parser.hasNext();
        }

        @Override
        public Event next() {
            Event e = parser.next();
            switch (e.getEventId()) {
                case DocumentStart -> {
                    shapes.clear();
                    repeated = 0;
                }
                case MappingStart, SequenceStart -> {
                    if (open.size() >= MAX_DEPTH) {
                        throw new Limit("nested deeper than " + MAX_DEPTH + " levels (the limit JSON is read with)",
                                e.getStartMark());
                    }
                    open.push(new Open(((NodeEvent) e).getAnchor().orElse(null)));
                }
                case MappingEnd, SequenceEnd -> {
                    Open closed = open.pop();
                    Shape shape = new Shape(closed.height + 1, closed.values);
                    if (closed.anchor != null) {
                        shapes.put(closed.anchor, shape);
                    }
                    child(shape);
                }
                case Scalar -> {
                    ScalarEvent s = (ScalarEvent) e;
                    if (s.getValue().length() > MAX_SCALAR) {
                        throw new Limit("a scalar longer than " + MAX_SCALAR + " characters (the limit JSON is read with)",
                                e.getStartMark());
                    }
                    Shape shape = new Shape(0, 1);
                    s.getAnchor().ifPresent(a -> shapes.put(a, shape));
                    child(shape);
                }
                case Alias -> alias((AliasEvent) e);
                default -> {
                }
            }
            return e;
        }

        private void alias(AliasEvent e) {
            Anchor a = e.getAlias();
            for (Open o : open) {
                if (a.equals(o.anchor)) {
                    throw new Limit("alias *" + a + " inside the node &" + a + " it names: a structure that contains itself",
                            e.getStartMark());
                }
            }
            Shape shape = shapes.get(a);
            if (shape == null) {
                return; // undefined: the composer says so
            }
            if (open.size() + shape.height() > MAX_DEPTH) {
                throw new Limit("alias *" + a + " nests it deeper than " + MAX_DEPTH + " levels (the limit JSON is read with)",
                        e.getStartMark());
            }
            repeated += shape.values();
            if (repeated > MAX_REPEATED) {
                throw new Limit("aliases repeat more than " + MAX_REPEATED + " values in one document", e.getStartMark());
            }
            child(shape);
        }

        private void child(Shape shape) {
            Open parent = open.peek();
            if (parent != null) {
                parent.height = Math.max(parent.height, shape.height());
                parent.values += shape.values();
            }
        }
    }

    /**
     * The text, held to lines of at most {@link #MAX_SCALAR} characters: the scanner reads a token to its end before
     * anything can judge it, so a scalar without end (a file of one line, /dev/zero) is stopped here.
     */
    private static final class Lines extends FilterReader {
        private int line = 1;
        private int length;

        Lines(Reader in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0) {
                count((char) c);
            }
            return c;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            for (int i = off; i < off + n; i++) {
                count(buf[i]);
            }
            return n;
        }

        private void count(char c) {
            if (c == '\n') {
                line++;
                length = 0;
            } else if (++length > MAX_SCALAR) {
                throw new Limit("a line longer than " + MAX_SCALAR + " characters (the limit of a JSON string)", line);
            }
        }
    }
}
