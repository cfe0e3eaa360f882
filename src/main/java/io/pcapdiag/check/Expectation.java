package io.pcapdiag.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;

/**
 * One finding as a baseline keeps it: the fields of the JSON contract that are a verdict. Times, frame numbers,
 * capture paths, titles and wording are left out: they change without the verdict changing.
 *
 * @param refs   {@code client}/{@code target}/{@code responder} to the Kubernetes object named, when a cluster was given
 * @param causes cause id to verdict, when the finding has causes
 */
public record Expectation(String pattern, String client, String target, String responder, long attempts,
        SortedMap<String, String> refs, SortedMap<String, String> causes) {

    /** What pairs an expected finding with an actual one: a changed pattern or endpoint is a different finding. */
    String key() {
        return pattern + " " + client + " -> " + target;
    }

    /** One line: {@code nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080, answered by 10.244.0.19:80, 1 attempt}. */
    String describe() {
        StringBuilder b = new StringBuilder(key());
        if (responder != null) {
            b.append(", answered by ").append(responder);
        }
        b.append(", ").append(attempts).append(attempts == 1 ? " attempt" : " attempts");
        refs.forEach((role, ref) -> b.append(", ").append(role).append(' ').append(ref));
        causes.forEach((id, verdict) -> b.append(", cause ").append(id).append(' ').append(verdict));
        return b.toString();
    }

    /** What changed from {@code before} to this (same key), e.g. {@code attempts 1 -> 3; cause x: unknown -> confirmed}. */
    List<String> changesFrom(Expectation before) {
        List<String> out = new ArrayList<>();
        if (!Objects.equals(before.responder, responder)) {
            out.add("responder " + none(before.responder) + " -> " + none(responder));
        }
        if (before.attempts != attempts) {
            out.add("attempts " + before.attempts + " -> " + attempts);
        }
        changes("", before.refs, refs, out);
        changes("cause ", before.causes, causes, out);
        return out;
    }

    private static void changes(String prefix, SortedMap<String, String> before, SortedMap<String, String> after,
            List<String> out) {
        java.util.TreeSet<String> keys = new java.util.TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            String b = before.get(k);
            String a = after.get(k);
            if (!Objects.equals(a, b)) {
                out.add(prefix + k + ": " + none(b) + " -> " + none(a));
            }
        }
    }

    private static String none(String s) {
        return s == null ? "(none)" : s;
    }
}
