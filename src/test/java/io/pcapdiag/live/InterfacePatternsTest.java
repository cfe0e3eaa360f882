package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterfacePatternsTest {
    private static final List<String> NODE = List.of("lo", "eth0", "eth1", "cni0", "kube-ipvs0", "veth1a2b3c",
            "veth9f8e7d", "cali12ab", "flannel.1", "eth0.100", "any");

    @Test
    void globsMatchLikeTheShell() {
        assertTrue(InterfacePatterns.matches("veth*", "veth1a2b3c"));
        assertTrue(InterfacePatterns.matches("veth*", "veth"));
        assertFalse(InterfacePatterns.matches("veth*", "xveth0"));
        assertTrue(InterfacePatterns.matches("eth?", "eth1"));
        assertFalse(InterfacePatterns.matches("eth?", "eth10"));
        assertTrue(InterfacePatterns.matches("eth[01]", "eth0"));
        assertFalse(InterfacePatterns.matches("eth[01]", "eth2"));
        assertTrue(InterfacePatterns.matches("eth[0-3]", "eth2"));
        assertTrue(InterfacePatterns.matches("eth[!0]", "eth1"));
        assertFalse(InterfacePatterns.matches("eth[!0]", "eth0"));
        assertTrue(InterfacePatterns.matches("*.1", "flannel.1"));
        assertTrue(InterfacePatterns.matches("c*0", "cni0"));
        assertFalse(InterfacePatterns.matches("c*0", "cali12ab"));
        assertTrue(InterfacePatterns.matches("*", "anything"));
        assertTrue(InterfacePatterns.matches("eth0", "eth0"));
        assertFalse(InterfacePatterns.matches("eth0", "eth0.100"));
    }

    @Test
    void selectsSortedMatchesOfNamesAndGlobs() {
        InterfacePatterns p = InterfacePatterns.parse(List.of("cni0,veth*", "eth0"));
        assertEquals(List.of("cni0", "eth0", "veth1a2b3c", "veth9f8e7d"), p.select(NODE));
        assertFalse(p.single());
        assertTrue(p.hasGlob());
        assertEquals("cni0,veth*,eth0", p.toString());
    }

    @Test
    void anyIsItsOwnInterface() {
        InterfacePatterns p = InterfacePatterns.parse("any");
        assertEquals(List.of("any"), p.select(List.of("lo", "eth0")));
        assertTrue(p.single());
        assertThrows(IllegalArgumentException.class, () -> InterfacePatterns.parse("any,eth0"));
    }

    @Test
    void reportsMissingPlainNamesOnly() {
        InterfacePatterns p = InterfacePatterns.parse("eth0,cni0,veth*,wg0");
        assertEquals(List.of("cni0", "wg0"), p.missing(List.of("eth0", "lo")));
        assertEquals(List.of("eth0"), p.select(List.of("eth0", "lo")));
    }

    @Test
    void rejectsWhatIsNoInterface() {
        assertThrows(IllegalArgumentException.class, () -> InterfacePatterns.parse(" , "));
        assertThrows(IllegalArgumentException.class, () -> InterfacePatterns.parse("eth0;rm -rf"));
        assertEquals(List.of("eth0"), InterfacePatterns.parse("eth0,eth0, eth0").patterns());
    }

    @Test
    void writePathsGiveEachInterfaceItsOwnFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("live.pcap");
        assertEquals(file, WritePaths.of(file, true, "eth0", 1));
        assertEquals(dir.resolve("live.eth0~2.pcap"), WritePaths.of(file, true, "eth0", 2));
        assertEquals(dir.resolve("live.veth1a.pcap"), WritePaths.of(file, false, "veth1a", 1));
        assertEquals(dir.resolve("live.veth1a~3.pcap"), WritePaths.of(file, false, "veth1a", 3));
        assertEquals(dir.resolve("live.cni0"), WritePaths.of(dir.resolve("live"), false, "cni0", 1));
        assertEquals(dir.resolve("node-cni0-x.pcap"), WritePaths.of(dir.resolve("node-{if}-x.pcap"), false, "cni0", 1));
        Path sub = Files.createDirectory(dir.resolve("out"));
        assertEquals(sub.resolve("cni0.pcap"), WritePaths.of(sub, true, "cni0", 1));
        assertEquals("veth1a~2", WritePaths.captureName("veth1a", 2));
        assertEquals("veth1a", WritePaths.captureName("veth1a", 1));
    }
}
