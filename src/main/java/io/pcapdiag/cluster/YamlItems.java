package io.pcapdiag.cluster;

import java.io.Reader;
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
import org.snakeyaml.engine.v2.exceptions.ComposerException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
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
 */
final class YamlItems {
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
        LoadSettings settings = LoadSettings.builder().setLabel(label).setCodePointLimit(Integer.MAX_VALUE).build();
        Composer composer = new Streaming(settings, new ParserImpl(settings, new StreamReader(settings, reader)), items);
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

        Streaming(LoadSettings settings, ParserImpl parser, Items items) {
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
}
