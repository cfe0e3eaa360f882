package io.pcapdiag.capture;

/** The one line shown when a pcap4j path needs libpcap and the machine has none. */
public final class Libpcap {
    public static final String MISSING =
            "this needs libpcap, which is not installed: apt-get install libpcap0.8 (Debian/Ubuntu) or dnf install libpcap";

    private Libpcap() {
    }

    /**
     * Where JNA unpacks its native stub before pcap4j loads libpcap. JNA's own default is the user's home cache
     * (root's, on a node); pcapdiag uses a directory of its own under java.io.tmpdir instead, made 0700 and used only
     * when it is a real directory owned by this user with no other access. Nothing is set when the run already says
     * (jna.tmpdir, or jna.boot.library.path as the image does, which needs no unpacking and so no writable directory).
     */
    public static synchronized void prepareNativeDir() {
        if (System.getProperty("jna.tmpdir") != null || System.getProperty("jna.boot.library.path") != null) {
            return;
        }
        try {
            int uid = (Integer) java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
            java.nio.file.Path dir = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "pcapdiag-jna-" + uid);
            var owner = java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
            try {
                java.nio.file.Files.createDirectory(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(owner));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // made by an earlier run: checked below like a new one
            }
            var nofollow = java.nio.file.LinkOption.NOFOLLOW_LINKS;
            var attrs = java.nio.file.Files.readAttributes(dir, java.nio.file.attribute.PosixFileAttributes.class, nofollow);
            if (attrs.isDirectory() && !attrs.isSymbolicLink() && attrs.permissions().equals(owner)
                    && (Integer) java.nio.file.Files.getAttribute(dir, "unix:uid", nofollow) == uid) {
                System.setProperty("jna.tmpdir", dir.toString());
            }
        } catch (java.io.IOException | RuntimeException e) {
            // No /proc, a read-only or foreign temp directory: JNA's default stays; if it cannot unpack either, the
            // run says libpcap cannot be loaded.
        }
    }
}
