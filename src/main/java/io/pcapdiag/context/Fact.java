package io.pcapdiag.context;

/**
 * One thing the context knows, as a sentence, and where it comes from, e.g. (capture, "the capture shows
 * 10.96.10.80:8080 DNAT'ed to 10.244.0.18:80 (#13)").
 */
public record Fact(Source source, String text) {
    public static Fact capture(String text) {
        return new Fact(Source.CAPTURE, text);
    }
}
