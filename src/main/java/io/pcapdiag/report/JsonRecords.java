package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The one serialiser of the reports' JSON: the records that are its schema ({@link JsonReporter}'s, {@link
 * JsonLinesReporter}'s lines) written as they are, through Jackson's streaming generator. A record is an object of its
 * components in their order, each named in snake_case ({@code clientPort} is {@code client_port}) or as its
 * {@link JsonProperty} says; a {@code null} is written unless the component is {@link JsonInclude} {@code NON_NULL};
 * an {@link JsonUnwrapped} record's components stand in its place; a map is an object sorted by key; a collection is
 * an array. This is what Jackson's data binding makes of the same records with those annotations, without the
 * introspection that costs a short run a fifth of a second before the first byte (docs/performance.md).
 */
final class JsonRecords {
    /** A record's components as written: name, accessor, and what the annotations say. */
    private record Property(String name, Method accessor, boolean omitNull, boolean unwrapped) {
        Object of(Record r) {
            try {
                return accessor.invoke(r);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + r.getClass().getSimpleName() + "." + name, e);
            }
        }
    }

    private static final ClassValue<Property[]> PROPERTIES = new ClassValue<>() {
        @Override
        protected Property[] computeValue(Class<?> type) {
            return Arrays.stream(type.getRecordComponents()).map(JsonRecords::property).toArray(Property[]::new);
        }
    };

    private JsonRecords() {
    }

    private static Property property(RecordComponent c) {
        Method accessor = c.getAccessor();
        accessor.setAccessible(true); // the records are the reporters' own, most of them private
        // Jackson's annotations do not target record components: javac puts them on the accessor (and the field).
        JsonProperty named = accessor.getAnnotation(JsonProperty.class);
        JsonInclude include = accessor.getAnnotation(JsonInclude.class);
        return new Property(named != null ? named.value() : snakeCase(c.getName()), accessor,
                include != null && include.value() == JsonInclude.Include.NON_NULL,
                accessor.isAnnotationPresent(JsonUnwrapped.class));
    }

    /** {@code clientPort} as {@code client_port}: an underscore before each capital that follows a lower-case letter. */
    static String snakeCase(String name) {
        StringBuilder b = new StringBuilder(name.length() + 4);
        boolean lowerBefore = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                if (lowerBefore) {
                    b.append('_');
                }
                b.append(Character.toLowerCase(c));
                lowerBefore = false;
            } else {
                b.append(c);
                lowerBefore = c != '_';
            }
        }
        return b.toString();
    }

    /** Writes {@code value}: a record, map, collection, string, number, boolean, enum (by name) or null. */
    static void write(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Integer n) {
            g.writeNumber(n);
        } else if (value instanceof Long n) {
            g.writeNumber(n);
        } else if (value instanceof Double n) {
            g.writeNumber(n);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Enum<?> e) {
            g.writeString(e.name());
        } else if (value instanceof Record r) {
            g.writeStartObject();
            fields(g, r);
            g.writeEndObject();
        } else if (value instanceof Map<?, ?> m) {
            g.writeStartObject();
            SortedMap<String, Object> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof Collection<?> c) {
            g.writeStartArray();
            for (Object o : c) {
                write(g, o);
            }
            g.writeEndArray();
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    /** The fields of {@code r}, into the object being written. */
    private static void fields(JsonGenerator g, Record r) throws IOException {
        for (Property p : PROPERTIES.get(r.getClass())) {
            Object v = p.of(r);
            if (p.unwrapped()) {
                if (v != null) {
                    fields(g, (Record) v);
                }
            } else if (v != null || !p.omitNull()) {
                g.writeFieldName(p.name());
                write(g, v);
            }
        }
    }
}
