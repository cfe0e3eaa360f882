package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --attempts} writes an IPv6 client as every endpoint is written, {@code [addr]:port}. */
class AttemptsIpv6Test {
    @Test
    void theClientIsBracketed() {
        CliRun r = CliRun.of("analyze", "--attempts", "1", "captures/hairpin-no-brnf-v6/any.pcap");
        String line = r.out().lines().filter(l -> l.contains(" > ")).filter(l -> l.contains("bypassed")).findFirst().orElseThrow();
        assertTrue(line.contains(" [2001:db8:244::18]:40001 > [2001:db8:96::80]:8080 "), line);
    }
}
