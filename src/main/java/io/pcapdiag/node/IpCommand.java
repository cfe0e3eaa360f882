package io.pcapdiag.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What only netlink reports, through iproute2's {@code ip -d -j addr show}: link kinds, every address with its
 * prefix length and VXLAN parameters. Optional: without {@code ip}, kinds come from sysfs and addresses from
 * getifaddrs(3), and VXLAN parameters are unknown.
 */
final class IpCommand {
    private static final long TIMEOUT_SECONDS = 10;

    /** What {@code ip} says about one link. */
    record Link(String kind, List<InterfaceAddress> addresses, NodeInterface.Vxlan vxlan) {
    }

    private IpCommand() {
    }

    /** The first executable {@code ip} on PATH, or unknown with the reason. */
    static OrUnknown<Path> onPath(String path) {
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path p = Path.of(dir, "ip");
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return OrUnknown.known(p);
                }
            }
        }
        return OrUnknown.unknown("no ip (iproute2) on PATH");
    }

    /** Runs {@code ip -d -j addr show}: links by ifindex, or unknown with the reason. */
    static OrUnknown<Map<Integer, Link>> links(Path ip) {
        String cmd = ip + " -d -j addr show";
        try {
            Process p = new ProcessBuilder(ip.toString(), "-d", "-j", "addr", "show").start();
            p.getOutputStream().close();
            // Both pipes drained on their own threads, so that neither can fill up and the wait can time out
            // (no temporary files: a container's root file system may be read-only).
            Drain out = new Drain(p.getInputStream());
            Drain err = new Drain(p.getErrorStream());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return OrUnknown.unknown(cmd + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            out.join();
            err.join();
            if (p.exitValue() != 0) {
                return OrUnknown.unknown(cmd + " failed (exit " + p.exitValue() + "): "
                        + Reasons.oneLine(new String(err.bytes(), StandardCharsets.UTF_8)));
            }
            return parse(out.bytes(), cmd);
        } catch (IOException e) {
            return OrUnknown.unknown("cannot run " + cmd + ": " + Reasons.oneLine(String.valueOf(e.getMessage())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OrUnknown.unknown(cmd + " was interrupted");
        }
    }

    /** Reads a stream to its end on a daemon thread. */
    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        Drain(InputStream in) {
            super("pcapdiag-ip-drain");
            this.in = in;
            setDaemon(true);
            start();
        }

        @Override
        public void run() {
            try (in) {
                in.transferTo(buf);
            } catch (IOException e) {
                // The process was killed: what was read is what there is.
            }
        }

        synchronized byte[] bytes() {
            return buf.toByteArray();
        }
    }

    static OrUnknown<Map<Integer, Link>> parse(byte[] json, String cmd) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            // iproute2 before 4.13 has no -j and prints text.
            return OrUnknown.unknown(cmd + " did not print JSON (iproute2 older than 4.13?)");
        }
        if (root == null || !root.isArray()) {
            return OrUnknown.unknown(cmd + " did not print a JSON array");
        }
        Map<Integer, Link> links = new HashMap<>();
        for (JsonNode l : root) {
            if (!l.path("ifindex").canConvertToInt()) {
                continue;
            }
            JsonNode info = l.path("linkinfo");
            String kind = info.path("info_kind").asText(null);
            if (kind == null) {
                // No rtnl_link_ops kind: a NIC driver, or the loopback device.
                kind = "loopback".equals(l.path("link_type").asText()) ? "loopback" : "device";
            }
            List<InterfaceAddress> addresses = new ArrayList<>();
            for (JsonNode a : l.path("addr_info")) {
                String local = a.path("local").asText(null);
                if (local == null || !a.path("prefixlen").canConvertToInt()) {
                    continue;
                }
                try {
                    long[] v = Ip.parse(local);
                    addresses.add(new InterfaceAddress(Endpoint.address(v[0], v[1]), a.get("prefixlen").asInt()));
                } catch (IllegalArgumentException e) {
                    // Not an IP address family pcapdiag looks at.
                }
            }
            NodeInterface.Vxlan vxlan = null;
            if (kind.equals("vxlan")) {
                JsonNode d = info.path("info_data");
                vxlan = new NodeInterface.Vxlan(d.path("id").canConvertToLong() ? d.get("id").asLong() : null,
                        d.path("port").canConvertToInt() ? d.get("port").asInt() : null,
                        d.hasNonNull("local") ? d.get("local").asText() : d.hasNonNull("local6") ? d.get("local6").asText() : null,
                        d.hasNonNull("link") ? d.get("link").asText() : null);
            }
            links.put(l.get("ifindex").asInt(), new Link(kind, addresses, vxlan));
        }
        return OrUnknown.known(links);
    }
}
