package io.pcapdiag.live;

/** Live capture cannot start at all (no libpcap, no privilege, no interface): one line for the user. */
public final class LiveException extends Exception {
    private static final long serialVersionUID = 1L;

    public LiveException(String oneLine) {
        super(oneLine);
    }
}
