package io.pcapdiag.bench;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Writes a deterministic synthetic tcpdump capture of one Kubernetes node's pod bridge (cni0) for
 * benchmarks: many short TCP conversations with payload, IPv4 and IPv6, plus planted failures whose
 * expected pcapdiag findings are written beside the capture as {@code FILE.planted.json}.
 *
 * <p>Lives under src/test so it never ships in the product jar, and uses only the JDK so it runs
 * anywhere a JVM does. The same seed and options always give byte-identical files: randomness comes
 * from a SplitMix64 stream (specified here, not by the JDK) and floating point goes through
 * {@link StrictMath}.
 *
 * <p>Planted failures follow docs/design.md (attempt = client address, client port, ISN):
 * <ul>
 *   <li>{@code connection-refused}: SYN answered by RST|ACK, ack = ISN+1, from the dialed address:port;
 *   <li>{@code icmp-unreachable}: SYN answered by an ICMP/ICMPv6 destination-unreachable quoting it,
 *       sent by the node or an upstream router, never by the dialed address;
 *   <li>{@code vip-local-reject}: port-unreachable whose source is the dialed VIP itself, TTL 64,
 *       sub-millisecond RTT (IPVS binds the VIP locally and the kernel answers for it);
 *   <li>{@code no-response}: SYN retransmitted after 1 s and 3 s (same ISN), nothing answers. Each
 *       client makes at most one unanswered attempt per dst:port, so {@code lb-probe-dropped}
 *       (two or more client ports) can never apply;
 *   <li>{@code nat-bypass-reply}: SYN to a ClusterIP answered by a SYN-ACK straight from the backend
 *       pod's address and MAC, the client RSTs it, retransmits 1 s later and is bypassed again;
 *   <li>{@code policy-reject}: the node's "administratively prohibited" unreachable (ICMP 3/13,
 *       ICMPv6 1/1) for a Service or pod, as a NetworkPolicy REJECT sends it.
 * </ul>
 *
 * <p>With {@code --dns}, and in the DNS-heavy trace ({@code --dns-lookups}), pods also resolve names through
 * the kube-dns Service (10.96.0.10:53, fd00:10:96::a) as glibc's {@code getaddrinfo} does with the
 * resolv.conf of a ClusterFirst pod ({@code search <ns>.svc.cluster.local svc.cluster.local cluster.local},
 * {@code ndots:5}), from a random stream of their own: the A and AAAA queries back to back from one socket,
 * a new socket for each name of the search list, the same queries again from the same socket after
 * {@code timeout:5} when an answer is missing, and answers from the Service address (the DNS pods are on
 * other nodes: the node un-NATs their answers). Planted, per docs/design.md "Beyond the handshake", and
 * counted in planted.json as the queries the finding holds (a query asked again is the same query):
 * <ul>
 *   <li>{@code dns-no-response}: both queries of a lookup unanswered, asked again 5 s later (answered then): 2;
 *   <li>{@code dns-race-lost}: the A answered, the AAAA (sent right after it) not, both asked again 5 s later:
 *       the conntrack insert race on older kernels: 1;
 *   <li>{@code dns-error}: both queries of an absolute name answered SERVFAIL, asked again at once and
 *       answered SERVFAIL again: 2;
 *   <li>{@code dns-search-expansion}: a name with fewer than 5 dots whose A and AAAA are answered only after
 *       the three search domains' NXDOMAINs, which cost 15 ms or more: 2. The same walk at under 1 ms a
 *       round (under 4 ms in all) is no finding, nor is a name that no search domain holds (NXDOMAIN to
 *       the end).
 * </ul>
 */
public final class NodeTraceGenerator {

    static final String USAGE = String.join("\n",
            "usage: NodeTraceGenerator --out FILE [--seed N] [--packets N] [--scale K] [--syn-flood N]",
            "                          [--dns] [--short-connections N] [--dns-lookups N] [--open-connections N]",
            "                          [--vxlan PORT | --geneve PORT | --ipip]",
            "",
            "  --out FILE       classic pcap to write (us timestamps, little-endian, Ethernet);",
            "                   the expected findings go to FILE.planted.json",
            "  --seed N         random seed (default 1); same seed and options = same bytes",
            "  --packets N      target packet count (default: enough for >= 2,000,000 packets",
            "                   and >= 300 MiB)",
            "  --scale K        multiply the target by K (the 4x benchmark variant: --scale 4)",
            "  --dns            pods also resolve names through kube-dns, 90 lookups a second (about",
            "                   2% of the packets), a few of them lost, failing or slow in the search list",
            "  --syn-flood N    write a SYN-flood trace instead: N unanswered SYNs from distinct",
            "                   source addresses (never retransmitted) over light normal traffic",
            "  --short-connections N  write a trace dense in short connections instead: N of them,",
            "                   about 7 packets each (handshake, one small request and answer, close),",
            "                   20,000 a second, with the same planted failures: a busy node's capture,",
            "                   where the per-connection cost dominates rather than the per-packet read",
            "  --open-connections N  write a trace of N connections open at once instead: outside",
            "                   clients from distinct addresses, 50,000 new a second, each a handshake, a",
            "                   request and its answer and never closed: more than the tracker follows at",
            "                   once (--max-open), so that it evicts followed connections; nothing planted",
            "  --dns-lookups N  write a DNS-heavy trace instead: N glibc lookups through kube-dns,",
            "                   5,000 a second (search-list walks, SERVFAILs, lost queries asked again",
            "                   after 5 s, races), over light TCP traffic with nothing planted",
            "  --vxlan PORT     the same traffic with every frame inside VXLAN (VNI 1) on UDP PORT",
            "                   between two node addresses, as a node's eth0 shows an overlay",
            "  --geneve PORT    the same inside Geneve (VNI 1, no options, an Ethernet frame inside),",
            "                   as OVN-Kubernetes and Antrea nodes show it (6081)",
            "  --ipip           the same inside IP in IP (protocol 4, or 41 for IPv6), as Calico's",
            "                   IPIP mode shows it: the frame's Ethernet header replaced by the node's",
            "  -h, --help       this text",
            "");

    /** Finding ids, docs/design.md's public contract, in the order planted.json lists them. */
    static final String[] PATTERNS = {
        "connection-refused", "icmp-unreachable", "vip-local-reject",
        "no-response", "nat-bypass-reply", "lb-probe-dropped", "policy-reject"};
    /** The DNS finding ids ("Beyond the handshake"), listed after PATTERNS in planted.json. */
    static final String[] DNS_PATTERNS = {"dns-race-lost", "dns-no-response", "dns-error", "dns-search-expansion"};
    static final int REFUSED = 0;
    static final int ICMP_UNREACHABLE = 1;
    static final int VIP_LOCAL_REJECT = 2;
    static final int NO_RESPONSE = 3;
    static final int NAT_BYPASS = 4;
    static final int POLICY_REJECT = 6;
    static final int DNS_RACE_LOST = PATTERNS.length;
    static final int DNS_NO_RESPONSE = PATTERNS.length + 1;
    static final int DNS_ERROR = PATTERNS.length + 2;
    static final int DNS_SEARCH_EXPANSION = PATTERNS.length + 3;

    static final long DEFAULT_PACKETS = 2_000_000L;
    static final long DEFAULT_BYTES = 300L << 20;
    /** 2024-11-21T12:00:00Z, the capture's first second. */
    static final long BASE_SECONDS = 1_732_190_400L;
    static final int SNAPLEN = 262_144;
    static final int LINKTYPE_ETHERNET = 1;

    // Traffic mix. A few thousand new conversations per second of capture time.
    static final double CONVERSATIONS_PER_SECOND = 3000;
    static final double V6_SHARE = 0.20;
    static final double P_REFUSED = 0.020;
    static final double P_ICMP_UNREACHABLE = 0.020;
    static final double P_VIP_LOCAL_REJECT = 0.015;
    static final double P_NO_RESPONSE = 0.020;
    static final double P_NAT_BYPASS = 0.015;
    // SYN flood: spoofed SYNs arrive much faster than real conversations.
    static final double FLOOD_SYNS_PER_SECOND = 100_000;
    static final double FLOOD_BACKGROUND_PER_SECOND = 500;
    /** --short-connections: new connections per second of capture time. */
    static final double SHORT_CONNECTIONS_PER_SECOND = 20_000;
    /** --open-connections: new connections per second of capture time (1 M of them open within 20 s, none idle 30 s). */
    static final double OPEN_CONNECTIONS_PER_SECOND = 50_000;
    /** Lookups through kube-dns per second of a node trace: about 2% of its packets. */
    static final double DNS_LOOKUPS_PER_SECOND = 90;
    /** --dns-lookups: lookups per second, and TCP conversations beside them. */
    static final double DNS_HEAVY_LOOKUPS_PER_SECOND = 5_000;
    static final double DNS_HEAVY_BACKGROUND_PER_SECOND = 300;
    /** Normal traffic goes on this long after the last flood SYN, so every flood SYN is unanswered
     * (docs/design.md: no answer and the capture went on for at least 3 s after it). */
    static final long FLOOD_TAIL_MICROS = 4_000_000L;

    // TCP flags (RFC 9293).
    static final int FIN = 0x01;
    static final int SYN = 0x02;
    static final int RST = 0x04;
    static final int PSH = 0x08;
    static final int ACK = 0x10;

    // TCP option layouts Linux sends.
    static final int OPT_NONE = 0;
    static final int OPT_SYN = 1;      // MSS, SACK_PERM, TS, NOP, WS=7: 20 bytes
    static final int OPT_TS = 2;       // NOP, NOP, TS: 12 bytes

    static final int POOL = 1 << 17;
    static final int POOL_MASK = POOL - 1;
    static final int MAX_MESSAGE = 60_000;
    static final int MAX_FRAME = 14 + 40 + 32 + 1448 + 64;
    /** Ethernet, IPv4, UDP and VXLAN (or Geneve, without options) headers in front of each frame: --vxlan, --geneve. */
    static final int VXLAN_OUTER = 14 + 20 + 8 + 8;
    /** With --ipip, the node's Ethernet and IPv4 headers in place of the frame's Ethernet header: 20 bytes more. */
    static final int IPIP_OUTER = 20;

    private final Options options;
    private final Rng rng;
    /** The lookups' own stream, so that adding DNS leaves every TCP conversation of a trace as it was. */
    private final Rng dnsRng;
    private final Topology topo;
    private final byte[] textPool;
    private final byte[] binaryPool;
    private final PriorityQueue<Pkt> queue = new PriorityQueue<>(4096,
            (a, b) -> a.ts != b.ts ? Long.compare(a.ts, b.ts) : Long.compare(a.serial, b.serial));
    private PcapWriter writer;
    private long serial;
    private long scheduledPackets;
    private long scheduledBytes;
    private long attempts;
    /** Distinct DNS queries (a query asked again from its socket with its id is the same query). */
    private long dnsQueries;
    /** "pod name" -> until when a search-list walk of that name by that pod counts as under way. */
    private final Map<String, Long> walks = new HashMap<>();
    private long lastTs;
    private final long[] planted = new long[PATTERNS.length + DNS_PATTERNS.length];
    /** (client, server, port) of every unanswered attempt: at most one each, see class comment. */
    private final Set<Long> unansweredDials = new HashSet<>();
    private long floodV4Counter;
    private long floodV6Counter;

    NodeTraceGenerator(Options options) {
        this.options = options;
        this.rng = new Rng(options.seed);
        this.dnsRng = new Rng(mix64(options.seed) ^ 0x646e73L);
        this.topo = new Topology(rng);
        this.textPool = textPool(rng);
        this.binaryPool = new byte[POOL + MAX_MESSAGE];
        for (int i = 0; i < binaryPool.length; i += 8) {
            long v = rng.nextLong();
            for (int k = 0; k < 8 && i + k < binaryPool.length; k++) {
                binaryPool[i + k] = (byte) (v >>> (8 * k));
            }
        }
    }

    public static void main(String[] args) {
        final Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("NodeTraceGenerator: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.print(USAGE);
            return;
        }
        try {
            long start = System.nanoTime();
            Summary s = generate(options);
            double secs = (System.nanoTime() - start) / 1e9;
            System.err.printf(Locale.ROOT,
                    "%s: %d packets, %.1f MB, %d attempts, %.1f s of capture; generated in %.2f s (%.0f MB/s)%n",
                    options.out, s.packets, s.bytes / 1e6, s.attempts, s.captureMicros / 1e6, secs,
                    s.bytes / 1e6 / secs);
        } catch (IOException e) {
            System.err.println("NodeTraceGenerator: cannot write " + options.out + ": " + e);
            System.exit(1);
        }
    }

    /** Writes {@code options.out} and {@code options.out + ".planted.json"}. */
    public static Summary generate(Options options) throws IOException {
        return new NodeTraceGenerator(options).run();
    }

    private Summary run() throws IOException {
        Path out = options.out;
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        try (PcapWriter w = new PcapWriter(out, options.vxlan, options.geneve, options.ipip)) {
            writer = w;
            if (options.synFlood >= 0) {
                floodTrace(options.synFlood);
            } else if (options.shortConnections > 0) {
                shortConnectionsTrace(options.shortConnections);
            } else if (options.dnsLookups > 0) {
                dnsTrace(options.dnsLookups);
            } else if (options.openConnections > 0) {
                openConnectionsTrace(options.openConnections);
            } else {
                nodeTrace();
            }
            drainBefore(Long.MAX_VALUE);
        }
        String kind = options.synFlood >= 0 ? "syn-flood" : options.shortConnections > 0 ? "short-connections"
                : options.dnsLookups > 0 ? "dns" : options.openConnections > 0 ? "open-connections" : "node";
        Summary s = new Summary(kind, options.seed,
                writer.packets, writer.bytes, attempts, dnsQueries, planted.clone(), lastTs);
        Path json = Paths.get(out + ".planted.json");
        Files.write(json, s.toJson().getBytes(StandardCharsets.UTF_8));
        return s;
    }

    private void nodeTrace() throws IOException {
        long targetPackets = (options.packets > 0 ? options.packets : DEFAULT_PACKETS) * options.scale;
        long targetBytes = options.packets > 0 ? 0 : DEFAULT_BYTES * options.scale;
        double gap = 1e6 / CONVERSATIONS_PER_SECOND;
        double lookupGap = 1e6 / DNS_LOOKUPS_PER_SECOND;
        long t = 0;
        long nextLookup = options.dns ? dnsRng.exp(lookupGap) : Long.MAX_VALUE;
        while (scheduledPackets < targetPackets || scheduledBytes < targetBytes) {
            if (nextLookup < t) {
                drainBefore(nextLookup);
                lookup(nextLookup, nodeLookupKind());
                nextLookup += 1 + dnsRng.exp(lookupGap);
                continue;
            }
            drainBefore(t);
            conversation(t, true);
            t += 1 + rng.exp(gap);
        }
    }

    /** --dns-lookups: a node whose pods resolve names all the time, beside a little TCP traffic. */
    private void dnsTrace(long lookups) throws IOException {
        double lookupGap = 1e6 / DNS_HEAVY_LOOKUPS_PER_SECOND;
        double background = 1e6 / DNS_HEAVY_BACKGROUND_PER_SECOND;
        long nextLookup = dnsRng.exp(lookupGap);
        long nextConversation = rng.exp(background);
        for (long i = 0; i < lookups; ) {
            if (nextLookup <= nextConversation) {
                drainBefore(nextLookup);
                lookup(nextLookup, dnsLookupKind());
                nextLookup += 1 + dnsRng.exp(lookupGap);
                i++;
            } else {
                drainBefore(nextConversation);
                conversation(nextConversation, false);
                nextConversation += 1 + rng.exp(background);
            }
        }
    }

    private void shortConnectionsTrace(long connections) throws IOException {
        double gap = 1e6 / SHORT_CONNECTIONS_PER_SECOND;
        long t = 0;
        while (attempts < connections) {
            drainBefore(t);
            conversation(t, true);
            t += 1 + rng.exp(gap);
        }
    }

    /** --open-connections: connections that stay open, from outside clients to the node's NodePorts. */
    private void openConnectionsTrace(long connections) throws IOException {
        double gap = 1e6 / OPEN_CONNECTIONS_PER_SECOND;
        long t = 0;
        while (attempts < connections) {
            drainBefore(t);
            openConnection(t);
            t += 1 + rng.exp(gap);
        }
    }

    /** The handshake, a small request and its answer, and the client's ACK of it; no close within the capture. */
    private void openConnection(long t) {
        boolean v6 = rng.chance(V6_SHARE);
        Dial d = new Dial();
        d.client = outsideHost(v6);
        d.client.nextPort = rng.between(d.client.portLow, d.client.portHigh);
        d.server = v6 ? topo.node6 : topo.node4;
        d.port = rng.chance(0.5) ? 30080 : 30443;
        d.rtt = rng.logUniform(2_000, 40_000);
        Conv c = new Conv(d);
        c.client(requestAndAnswer(c, t) + d.rtt, ACK, null, 0, 0);
        attempts++;
    }

    /**
     * A client outside the cluster, its address one no other such client has (a counter mixed into the address: 2001:db8:f100::/48
     * or a public IPv4 address), with the ephemeral ports 1024-65535.
     */
    private Host outsideHost(boolean v6) {
        if (v6) {
            long x = mix64(++floodV6Counter);
            byte[] ip = {0x20, 0x01, 0x0d, (byte) 0xb8, (byte) 0xf1, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            putLongBE(ip, 8, x);
            return new Host(-1, ip, Topology.UPSTREAM_MAC, 1024, 65_535);
        }
        int x;
        int first;
        do {
            x = mix32((int) ++floodV4Counter);
            first = x >>> 24;
        } while (first == 0 || first == 10 || first == 127 || first >= 224);
        byte[] ip = {(byte) (x >>> 24), (byte) (x >>> 16), (byte) (x >>> 8), (byte) x};
        return new Host(-1, ip, Topology.UPSTREAM_MAC, 1024, 65_535);
    }

    private void floodTrace(long synCount) throws IOException {
        double floodGap = 1e6 / FLOOD_SYNS_PER_SECOND;
        double background = 1e6 / FLOOD_BACKGROUND_PER_SECOND;
        long nextSyn = rng.exp(floodGap);
        long nextConversation = rng.exp(background);
        long last = 0;
        for (long i = 0; i < synCount; ) {
            if (nextSyn <= nextConversation) {
                drainBefore(nextSyn);
                floodSyn(nextSyn);
                last = nextSyn;
                nextSyn += 1 + rng.exp(floodGap);
                i++;
            } else {
                drainBefore(nextConversation);
                conversation(nextConversation, false);
                nextConversation += 1 + rng.exp(background);
            }
        }
        while (nextConversation < last + FLOOD_TAIL_MICROS) {
            drainBefore(nextConversation);
            conversation(nextConversation, false);
            nextConversation += 1 + rng.exp(background);
        }
    }

    /** Every packet still queued is earlier than anything a conversation starting at t can add. */
    private void drainBefore(long t) throws IOException {
        while (!queue.isEmpty() && queue.peek().ts < t) {
            Pkt p = queue.poll();
            writer.write(p);
            lastTs = p.ts;
        }
    }

    private void schedule(Pkt p) {
        p.serial = serial++;
        p.frameLen = frameLen(p);
        scheduledPackets++;
        scheduledBytes += 16 + p.frameLen;
        queue.add(p);
    }

    // ---------------------------------------------------------------- conversations

    private void conversation(long t, boolean plantFailures) {
        boolean v6 = rng.chance(V6_SHARE);
        attempts++;
        double u = plantFailures ? rng.nextDouble() : 1.0;
        if ((u -= P_REFUSED) < 0) {
            refused(t, v6);
        } else if ((u -= P_ICMP_UNREACHABLE) < 0) {
            icmpUnreachable(t, v6);
        } else if ((u -= P_VIP_LOCAL_REJECT) < 0) {
            vipLocalReject(t, v6);
        } else if ((u -= P_NO_RESPONSE) < 0) {
            noResponse(t, v6);
        } else if ((u -= P_NAT_BYPASS) < 0) {
            natBypass(t, v6);
        } else {
            normal(t, v6);
        }
    }

    /** Who dials whom, seen from the node's pod bridge. */
    private Dial pickDial(boolean v6) {
        Topology.Family f = topo.family(v6);
        double u = rng.nextDouble();
        Dial d = new Dial();
        if (u < 0.45) {                       // pod -> ClusterIP (kube-proxy DNAT, replies un-NATed)
            int s = rng.nextInt(f.services.length);
            d.client = pick(f.pods);
            d.server = f.services[s];
            d.port = topo.servicePorts[s];
            d.rtt = rng.between(60, 900);
        } else if (u < 0.60) {                // pod -> pod on another node
            d.client = pick(f.pods);
            d.server = pick(f.remotePods);
            d.port = pick(Topology.APP_PORTS);
            d.rtt = rng.between(150, 900);
        } else if (u < 0.63) {                // pod -> the internet (SNAT on eth0, not visible here)
            d.client = pick(f.pods);
            d.server = pick(f.external);
            d.port = rng.chance(0.85) ? 443 : 80;
            d.rtt = rng.logUniform(2_000, 40_000);
        } else if (u < 0.635) {               // Prometheus on another node scrapes a local pod
            d.client = pick(f.remotePods);
            d.server = pick(f.pods);
            d.port = 9090;
            d.rtt = rng.between(25, 150);
        } else if (u < 0.86) {                // pod on another node -> local pod
            d.client = pick(f.remotePods);
            d.server = pick(f.pods);
            d.port = pick(Topology.APP_PORTS);
            d.rtt = rng.between(25, 150);
        } else if (u < 0.96) {                // pod -> pod on this node, bridged
            d.client = pick(f.pods);
            do {
                d.server = pick(f.pods);
            } while (d.server == d.client);
            d.port = pick(Topology.APP_PORTS);
            d.rtt = rng.between(20, 100);
        } else {                              // kubelet probe from the node's bridge address
            d.client = f.gateway;
            d.server = pick(f.pods);
            d.port = 8080;
            d.probe = true;
            d.rtt = rng.between(20, 100);
        }
        return d;
    }

    private void normal(long t, boolean v6) {
        if (options.shortConnections > 0) {
            shortConnection(t, v6);
            return;
        }
        Dial d = pickDial(v6);
        Conv c = new Conv(d);
        t = handshake(c, t);
        c.client(t, ACK, null, 0, 0);
        int rounds = d.probe ? 1 : rounds(d.port);
        for (int r = 0; r < rounds; r++) {
            t += r == 0 ? rng.between(2, 40) : rng.logUniform(200, 30_000);
            Msg request = request(d, r, t);
            t = c.send(t, true, request);
            long processing = processing(d);
            if (processing > 40_000 + d.rtt) {
                // Linux delayed ACK (40 ms) fires before a slow server answers.
                c.server(t + d.rtt + 40_000, ACK, null, 0, 0);
            }
            t += d.rtt + processing;
            Msg response = response(d, r, t);
            t = c.send(t, false, response);
        }
        boolean serverCloses = d.probe || rng.chance(0.2);   // Connection: close, idle timeouts
        if (serverCloses) {
            t += rng.between(5, 200);
            c.server(t, FIN | ACK, null, 0, 0);
            t += rng.between(10, 60);
            c.client(t, FIN | ACK, null, 0, 0);
            t += d.rtt;
            c.server(t, ACK, null, 0, 0);
        } else {
            clientCloses(c, t + rng.between(5, 2_000));
        }
    }

    /** The SYN at {@code t} and the SYN-ACK a round trip later; returns when the client sends next. */
    private long handshake(Conv c, long t) {
        c.syn(t);
        t += c.d.rtt;
        c.synAck(t);
        return t + rng.between(3, 30);
    }

    /** The client's FIN at {@code t}, the server's a round trip later, the client's last ACK. */
    private void clientCloses(Conv c, long t) {
        c.client(t, FIN | ACK, null, 0, 0);
        t += c.d.rtt;
        c.server(t, FIN | ACK, null, 0, 0);
        t += rng.between(3, 30);
        c.client(t, ACK, null, 0, 0);
    }

    /**
     * Seven packets: the handshake (the client's request rides on its ACK), one small answer, and the close, the
     * client's FIN acknowledging the answer.
     */
    private void shortConnection(long t, boolean v6) {
        Conv c = new Conv(pickDial(v6));
        clientCloses(c, requestAndAnswer(c, t) + rng.between(5, 200));
    }

    /** The handshake at {@code t}, a small request riding on the client's ACK, and one small answer: when it was sent. */
    private long requestAndAnswer(Conv c, long t) {
        t = handshake(c, t);
        Msg request = Msg.binary(rng.between(60, 300), binaryPool, rng.nextInt());
        c.client(t, ACK | PSH, request, 0, request.length());
        t += c.d.rtt + rng.between(30, 800);
        Msg response = Msg.binary(rng.between(100, 500), binaryPool, rng.nextInt());
        c.server(t, ACK | PSH, response, 0, response.length());
        return t;
    }

    private void refused(long t, boolean v6) {
        Dial d = pickDial(v6);
        Conv c = new Conv(d);
        c.syn(t);
        // RFC 9293 3.10.7.1: a closed port answers a SYN with <SEQ=0><ACK=ISN+1><CTL=RST,ACK>.
        schedule(tcp(t + d.rtt, d.server, d.client, d.port, c.cport, RST | ACK, 0, c.isnC + 1, 0,
                OPT_NONE, 0, 0, 0, c.serverFlow));
        planted[REFUSED]++;
    }

    private void icmpUnreachable(long t, boolean v6) {
        Topology.Family f = topo.family(v6);
        Dial d = new Dial();
        d.client = pick(f.pods);
        Host source;
        int type = v6 ? 1 : 3;
        int code;
        int quoteTtl;
        boolean minimalQuote = false;
        if (rng.chance(0.5)) {
            // The node answers for a Service without endpoints (iptables REJECT in FORWARD) or a
            // NetworkPolicy reject: the ICMP source is the node's address, not the dialed one.
            if (rng.chance(0.6)) {
                int s = rng.nextInt(f.services.length);
                d.server = f.services[s];
                d.port = topo.servicePorts[s];
            } else {
                d.server = pick(f.remotePods);
                d.port = pick(Topology.APP_PORTS);
            }
            source = f.gateway;
            boolean portUnreachable = rng.chance(0.7);
            code = v6 ? (portUnreachable ? 4 : 1) : (portUnreachable ? 3 : 13);
            d.rtt = rng.between(20, 300);
            quoteTtl = 63;            // FORWARD sees the packet after ip_forward decremented TTL
        } else {
            // A router on the path has no route to the external host.
            d.server = pick(f.external);
            d.port = rng.chance(0.85) ? 443 : 80;
            source = pick(f.routers);
            boolean host = rng.chance(0.7);
            code = v6 ? (host ? 3 : 0) : (host ? 1 : 0);
            d.rtt = rng.logUniform(500, 5_000);
            quoteTtl = 62;
            minimalQuote = !v6 && rng.chance(0.5);   // RFC 792 routers quote IP header + 8 bytes
        }
        Conv c = new Conv(d);
        Pkt syn = c.syn(t);
        schedule(icmp(t + d.rtt, source, d.client, type, code, syn, quoteTtl, minimalQuote));
        // "Administratively prohibited" (ICMP 3/13, ICMPv6 1/1) is what a NetworkPolicy REJECT
        // sends: docs/design.md names that policy-reject, not icmp-unreachable.
        boolean prohibited = v6 ? type == 1 && code == 1 : type == 3 && code == 13;
        planted[prohibited ? POLICY_REJECT : ICMP_UNREACHABLE]++;
    }

    private void vipLocalReject(long t, boolean v6) {
        Topology.Family f = topo.family(v6);
        Dial d = new Dial();
        d.client = pick(f.pods);
        if (rng.chance(0.5)) {
            // LoadBalancer IP of an externalTrafficPolicy: Local Service without a local endpoint.
            d.server = pick(f.loadBalancers);
            d.port = rng.chance(0.5) ? 80 : 443;
        } else {
            // IPVS mode: the ClusterIP is bound to kube-ipvs0, the virtual server has no real server.
            int s = rng.nextInt(f.services.length);
            d.server = f.services[s];
            d.port = topo.servicePorts[s];
        }
        d.rtt = rng.between(15, 400);
        Conv c = new Conv(d);
        Pkt syn = c.syn(t);
        // The VIP is a local address, so icmp_send() picks it as the source (0 hops, TTL 64).
        schedule(icmp(t + d.rtt, d.server, d.client, v6 ? 1 : 3, v6 ? 4 : 3, syn, 64, false));
        planted[VIP_LOCAL_REJECT]++;
    }

    private void noResponse(long t, boolean v6) {
        Dial d;
        long key;
        do {
            d = pickDial(v6);
            key = ((long) d.client.id << 40) | ((long) d.server.id << 16) | d.port;
        } while (!unansweredDials.add(key));
        Conv c = new Conv(d);
        // Linux SYN retransmission: initial RTO 1 s, doubled (RFC 6298), same ISN.
        c.syn(t);
        c.syn(t + 1_000_000);
        c.syn(t + 3_000_000);
        planted[NO_RESPONSE]++;
    }

    private void natBypass(long t, boolean v6) {
        Topology.Family f = topo.family(v6);
        Dial d = new Dial();
        int s = rng.nextInt(f.services.length);
        d.client = pick(f.pods);
        d.server = f.services[s];
        d.port = topo.servicePorts[s];
        d.rtt = rng.between(30, 150);
        Host backend;
        do {
            backend = pick(f.pods);
        } while (backend == d.client);
        int backendPort = Topology.backendPort(d.port);
        Conv c = new Conv(d);
        for (int round = 0; round < 2; round++) {
            long ts = t + round * 1_000_000L;
            c.syn(ts);
            ts += d.rtt;
            // DNAT without SNAT: the backend answers the client directly over the bridge, so the
            // SYN-ACK carries the backend's own address and MAC and skips reverse NAT.
            int backendIsn = rng.nextInt();
            int backendTs = rng.nextInt();
            schedule(tcp(ts, backend, d.client, backendPort, c.cport, SYN | ACK, backendIsn,
                    c.isnC + 1, v6 ? 64_800 : 65_160, OPT_SYN, backendTs, c.lastClientTs,
                    0, c.serverFlow));
            ts += rng.between(5, 25);
            // The client has no socket for backend:port: RFC 9293 answers an unacceptable ACK
            // with <SEQ=SEG.ACK><CTL=RST>.
            schedule(tcp(ts, d.client, backend, c.cport, backendPort, RST, c.isnC + 1, 0, 0,
                    OPT_NONE, 0, 0, 0, c.clientFlow));
        }
        planted[NAT_BYPASS]++;
    }

    private void floodSyn(long t) {
        boolean v6 = rng.chance(V6_SHARE);
        Host source;
        Host target;
        int port;
        source = outsideHost(v6);
        if (v6) {
            target = topo.node6;
            port = 30080;
        } else {
            int which = rng.nextInt(3);
            target = which == 2 ? topo.v4.loadBalancers[0] : topo.node4;
            port = which == 0 ? 30080 : which == 1 ? 30443 : 443;
        }
        int[] windows = {512, 1024, 64240};
        Pkt p = tcp(t, source, target, 1024 + rng.nextInt(64_512), port, SYN, rng.nextInt(), 0,
                windows[rng.nextInt(3)], OPT_NONE, 0, 0, rng.nextInt(65536), rng.nextInt(1 << 20));
        p.dstMac = Topology.NODE_MAC;
        p.ttl = rng.between(40, 64);
        p.dontFragment = false;
        p.pad60 = true;             // received frames are padded to the Ethernet minimum
        schedule(p);
        attempts++;
        planted[NO_RESPONSE]++;
    }

    // ---------------------------------------------------------------- application profiles

    private int rounds(int port) {
        switch (port) {
            case 443: case 8443: return 2 + (rng.chance(0.2) ? rng.between(1, 2) : 0);  // handshake + data
            case 6379: return rng.between(1, 4);
            case 5432: case 3306: return rng.between(1, 3);
            case 53: return 1;
            default: return rng.chance(0.75) ? 1 : rng.between(2, 3);
        }
    }

    private long processing(Dial d) {
        if (d.probe) {
            return rng.between(50, 400);
        }
        switch (d.port) {
            case 6379: return rng.between(20, 150);
            case 53: return rng.between(30, 800);
            default: return rng.logUniform(100, rng.chance(0.05) ? 120_000 : 8_000);
        }
    }

    private Msg request(Dial d, int round, long t) {
        switch (d.port) {
            case 80: case 8080: case 9090:
                String path = d.probe ? "/healthz" : d.port == 9090 ? "/metrics" : pick(Topology.PATHS);
                String head = "GET " + path + " HTTP/1.1\r\nHost: " + hostHeader(d) + "\r\n"
                        + "User-Agent: " + (d.probe ? "kube-probe/1.29" : d.port == 9090
                        ? "Prometheus/2.53.0" : pick(Topology.AGENTS)) + "\r\n"
                        + "Accept: */*\r\n" + (d.probe ? "Connection: close\r\n" : "") + "\r\n";
                return Msg.text(head.getBytes(StandardCharsets.ISO_8859_1), 0, textPool, rng.nextInt());
            case 443: case 8443:
                return Msg.binary(round == 0 ? 517 : rng.between(80, 700), binaryPool, rng.nextInt());
            case 53:
                dnsQueries++; // DNS over TCP, one message per segment: pcapdiag counts it a query as over UDP
                d.dnsId = rng.nextInt(65536);
                d.dnsName = pick(Topology.WORDS) + "." + pick(Topology.NAMESPACES) + ".svc.cluster.local";
                return Msg.text(dns(d, 0), 0, textPool, 0);
            case 6379:
                return Msg.text(null, rng.between(14, 120), textPool, rng.nextInt());
            default:
                return Msg.binary(rng.between(40, 400), binaryPool, rng.nextInt());
        }
    }

    private Msg response(Dial d, int round, long t) {
        switch (d.port) {
            case 80: case 8080: case 9090: {
                int body;
                if (d.probe) {
                    body = 2;
                } else if (d.port == 9090) {
                    body = rng.between(4_000, 24_000);
                } else {
                    double u = rng.nextDouble();
                    body = u < 0.85 ? rng.between(2, 300) : u < 0.98 ? rng.between(300, 1_500)
                            : rng.between(1_500, 8_000);
                }
                String head = "HTTP/1.1 200 OK\r\nContent-Type: "
                        + (d.probe ? "text/plain; charset=utf-8" : d.port == 9090
                        ? "text/plain; version=0.0.4" : "application/json")
                        + "\r\nDate: " + httpDate(t) + "\r\nContent-Length: " + body + "\r\n\r\n";
                return Msg.text(head.getBytes(StandardCharsets.ISO_8859_1), body, textPool, rng.nextInt());
            }
            case 443: case 8443:
                return Msg.binary(round == 0 ? rng.between(1_400, 3_200)
                        : rng.chance(0.9) ? rng.between(40, 800) : rng.between(800, 8_000),
                        binaryPool, rng.nextInt());
            case 53:
                return Msg.text(dns(d, rng.between(1, 8)), 0, textPool, 0);
            case 6379:
                return Msg.text(null, rng.chance(0.9) ? rng.between(5, 200) : rng.between(200, 2_000),
                        textPool, rng.nextInt());
            default:
                return Msg.binary(rng.chance(0.9) ? rng.between(20, 600) : rng.between(600, 4_000),
                        binaryPool, rng.nextInt());
        }
    }

    /** A DNS query (answers == 0) or response over TCP (RFC 1035 4.2.2: two-byte length prefix). */
    private byte[] dns(Dial d, int answers) {
        byte[] name = d.dnsName.getBytes(StandardCharsets.US_ASCII);
        boolean aaaa = d.client.v6;
        int rdlen = aaaa ? 16 : 4;
        int len = 12 + name.length + 2 + 4 + answers * (12 + rdlen);
        byte[] b = new byte[2 + len];
        putShortBE(b, 0, len);
        putShortBE(b, 2, d.dnsId);
        putShortBE(b, 4, answers == 0 ? 0x0100 : 0x8580);   // RD; or QR AA RD RA
        putShortBE(b, 6, 1);
        putShortBE(b, 8, answers);
        int o = 14;
        int start = 0;
        for (int i = 0; i <= name.length; i++) {          // "a.b" -> 1 'a' 1 'b' 0
            if (i == name.length || name[i] == '.') {
                b[o++] = (byte) (i - start);
                System.arraycopy(name, start, b, o, i - start);
                o += i - start;
                start = i + 1;
            }
        }
        b[o++] = 0;
        putShortBE(b, o, aaaa ? 28 : 1);
        putShortBE(b, o + 2, 1);
        o += 4;
        for (int a = 0; a < answers; a++) {
            putShortBE(b, o, 0xc00c);                          // pointer to the question name
            putShortBE(b, o + 2, aaaa ? 28 : 1);
            putShortBE(b, o + 4, 1);
            putIntBE(b, o + 6, 30);
            putShortBE(b, o + 10, rdlen);
            o += 12;
            byte[] ip = (aaaa ? topo.v6 : topo.v4).remotePods[rng.nextInt(topo.v4.remotePods.length)].ip;
            System.arraycopy(ip, 0, b, o, rdlen);
            o += rdlen;
        }
        return b;
    }

    // ---------------------------------------------------------------- DNS lookups

    /** What becomes of one getaddrinfo call. */
    enum Lookup { ANSWERED, SEARCH_FAST, SEARCH_SLOW, NXDOMAIN, SERVFAIL, LOST, RACE }

    /** A node's lookups: mostly answered at once; a few lost, failing or walking the search list. */
    private Lookup nodeLookupKind() {
        double u = dnsRng.nextDouble();
        return u < 0.015 ? Lookup.LOST : u < 0.025 ? Lookup.SERVFAIL : u < 0.04 ? Lookup.SEARCH_SLOW
                : u < 0.20 ? Lookup.SEARCH_FAST : u < 0.23 ? Lookup.NXDOMAIN : Lookup.ANSWERED;
    }

    /** --dns-lookups: every kind often, races too. */
    private Lookup dnsLookupKind() {
        double u = dnsRng.nextDouble();
        return u < 0.06 ? Lookup.LOST : u < 0.10 ? Lookup.RACE : u < 0.18 ? Lookup.SERVFAIL
                : u < 0.28 ? Lookup.SEARCH_SLOW : u < 0.53 ? Lookup.SEARCH_FAST : u < 0.61 ? Lookup.NXDOMAIN
                : Lookup.ANSWERED;
    }

    static final int TYPE_A = 1;
    static final int TYPE_AAAA = 28;
    static final int NOERROR = 0;
    static final int SERVFAIL = 2;
    static final int NXDOMAIN = 3;
    static final int TIMEOUT_MICROS = 5_000_000;   // glibc's timeout:5
    static final String[] EXTERNAL_NAMES = {"api.example.com", "cdn.example.net", "auth.example.org",
        "queue.example.com", "metrics.example.net", "hooks.example.org"};
    static final String[] CORP_NAMES = {"db.corp.example.", "ldap.corp.example.", "vault.corp.example."};

    /** One client socket of glibc's resolver: a pod's UDP port connected to the kube-dns address. */
    private final class DnsSocket {
        final Host client;
        final Host vip;
        final int port;
        final int flow;
        int ipId;

        DnsSocket(Host client, Host vip) {
            this.client = client;
            this.vip = vip;
            if (client.nextUdpPort < 0) {
                client.nextUdpPort = dnsRng.between(32_768, 60_999);
            }
            this.port = client.nextUdpPort;
            client.nextUdpPort = port >= 60_999 ? 32_768 : port + 1;
            this.flow = dnsRng.nextInt(1 << 20);
            this.ipId = dnsRng.nextInt(65536);
        }

        void query(long t, int id, String name, int type) {
            send(t, id, name, type);
            dnsQueries++;
        }

        /** The same query again, from the same socket with the same id: the same query, asked again. */
        void again(long t, int id, String name, int type) {
            send(t, id, name, type);
        }

        private void send(long t, int id, String name, int type) {
            Pkt p = udp(t, client, vip, port, 53, dnsMessage(id, 0x0100, name, type, NOERROR, null));
            p.ipId = ipId++;
            p.flow = flow;
            schedule(p);
        }

        /** The answer from the Service address: CoreDNS on another node, un-NATed by this one. */
        void answer(long t, int id, String name, int type, int rcode, byte[] data) {
            boolean cluster = name.endsWith(".cluster.local");
            int flags = 0x8180 | (cluster ? 0x0400 : 0) | rcode;      // QR RD RA, AA for its own zone
            Pkt p = udp(t, vip, client, 53, port, dnsMessage(id, flags, name, type, rcode, data));
            p.ipId = dnsRng.nextInt(65536);
            p.flow = dnsRng.nextInt(1 << 20);
            p.dontFragment = false;
            schedule(p);
        }
    }

    /**
     * One getaddrinfo(name, AF_UNSPEC) in a local pod, from {@code t}. glibc sends A and AAAA back to back from
     * one socket per name it tries (its search list first for a name with fewer than 5 dots, the name itself
     * last), moves on to the next name when both are NXDOMAIN, and sends both again from the same socket
     * after 5 s when an answer is missing, or at once after SERVFAIL.
     */
    private void lookup(long t, Lookup kind) {
        boolean v6 = dnsRng.chance(V6_SHARE);
        Topology.Family f = topo.family(v6);
        int podIndex = dnsRng.nextInt(f.pods.length);
        Host client = f.pods[podIndex];
        Host vip = f.services[1];                                   // kube-system/kube-dns
        String ns = Topology.NAMESPACES[podIndex % Topology.NAMESPACES.length];
        String[] search = {ns + ".svc.cluster.local", "svc.cluster.local", "cluster.local"};
        String service = Topology.WORDS[dnsRng.nextInt(Topology.WORDS.length)];
        switch (kind) {
            case ANSWERED:
                ask(t, client, vip, service + "." + search[0], NOERROR, dnsRng.between(150, 1_200));
                break;
            case SEARCH_FAST:
            case SEARCH_SLOW: {
                String name = EXTERNAL_NAMES[dnsRng.nextInt(EXTERNAL_NAMES.length)];
                // One walk of a name per pod in 10 s: two walks of one name by one pod, interleaved or close,
                // would not say which NXDOMAINs held which answer up. A walk takes under 0.1 s.
                for (int k = 0; walks.getOrDefault(client.id + " " + name, -1L) > t; k++) {
                    name = EXTERNAL_NAMES[(k + 1) % EXTERNAL_NAMES.length];
                    if (k >= EXTERNAL_NAMES.length) {
                        name = "n" + k + "." + name;
                    }
                }
                walks.put(client.id + " " + name, t + 10_000_000);
                for (String domain : search) {
                    // CoreDNS answers its own zone from memory; a slow one is far away or busy.
                    int rtt = kind == Lookup.SEARCH_SLOW ? dnsRng.between(5_000, 12_000) : dnsRng.between(100, 900);
                    t = ask(t, client, vip, name + "." + domain, NXDOMAIN, rtt) + dnsRng.between(15, 60);
                }
                ask(t, client, vip, name, NOERROR, dnsRng.logUniform(1_000, 30_000));
                if (kind == Lookup.SEARCH_SLOW) {
                    planted[DNS_SEARCH_EXPANSION] += 2;                    // the A and the AAAA of the name
                }
                break;
            }
            case NXDOMAIN: {
                // A Service that is gone, asked for by name and namespace: no search domain holds it.
                String name = service + "-v1." + Topology.NAMESPACES[dnsRng.nextInt(Topology.NAMESPACES.length)];
                for (String domain : search) {
                    t = ask(t, client, vip, name + "." + domain, NXDOMAIN, dnsRng.between(100, 900))
                            + dnsRng.between(15, 60);
                }
                ask(t, client, vip, name, NXDOMAIN, dnsRng.logUniform(1_000, 20_000));
                break;
            }
            case SERVFAIL: {
                // An absolute name whose upstream fails: SERVFAIL after CoreDNS's forward gave up, asked again
                // at once and answered SERVFAIL again.
                String name = CORP_NAMES[dnsRng.nextInt(CORP_NAMES.length)];
                Sent sent = sendBoth(t, client, vip, name);
                DnsSocket sock = sent.sock();
                int idA = sent.idA();
                int idAaaa = sent.idAaaa();
                long aaaa = sent.aaaa();
                for (int round = 0; round < 2; round++) {
                    if (round == 1) {
                        aaaa = t + dnsRng.between(15, 120);
                        sock.again(t, idA, name, TYPE_A);
                        sock.again(aaaa, idAaaa, name, TYPE_AAAA);
                    }
                    int rtt = round == 0 ? dnsRng.between(2_000, 8_000) : dnsRng.between(100, 400);
                    long a = t + rtt;
                    long b = Math.max(a + 5, aaaa + rtt + dnsRng.between(-50, 50));
                    sock.answer(a, idA, name, TYPE_A, SERVFAIL, null);
                    sock.answer(b, idAaaa, name, TYPE_AAAA, SERVFAIL, null);
                    t = b + dnsRng.between(15, 60);
                }
                planted[DNS_ERROR] += 2;
                break;
            }
            case LOST:
            case RACE: {
                String name = service + "." + search[0];
                // Back to back, as glibc sends them (sendmmsg): the race needs both in flight at once.
                Sent sent = sendBoth(t, client, vip, name);
                DnsSocket sock = sent.sock();
                int idA = sent.idA();
                int idAaaa = sent.idAaaa();
                if (kind == Lookup.RACE) {
                    // The A won the conntrack insert race and is answered; the AAAA lost it and was dropped.
                    sock.answer(t + dnsRng.between(150, 1_200), idA, name, TYPE_A, NOERROR, address(name, TYPE_A));
                    planted[DNS_RACE_LOST]++;
                } else {
                    planted[DNS_NO_RESPONSE] += 2;
                }
                long again = t + TIMEOUT_MICROS + dnsRng.between(100, 3_000);
                long again6 = again + dnsRng.between(15, 120);
                sock.again(again, idA, name, TYPE_A);
                sock.again(again6, idAaaa, name, TYPE_AAAA);
                int rtt = dnsRng.between(150, 1_200);
                sock.answer(again + rtt, idA, name, TYPE_A, NOERROR, address(name, TYPE_A));
                sock.answer(again6 + rtt + dnsRng.between(5, 100), idAaaa, name, TYPE_AAAA, NOERROR,
                        address(name, TYPE_AAAA));
                break;
            }
            default:
                throw new IllegalStateException(kind.toString());
        }
    }

    /**
     * A and AAAA for {@code name} from a new socket at {@code t}, each answered {@code rtt} (give or take) after
     * it left with {@code rcode}; returns the time of the later answer.
     */
    private long ask(long t, Host client, Host vip, String name, int rcode, int rtt) {
        Sent sent = sendBoth(t, client, vip, name);
        long a = t + rtt;
        long b = Math.max(a + 5, sent.aaaa() + rtt + dnsRng.between(-rtt / 8, rtt / 8));
        sent.sock().answer(a, sent.idA(), name, TYPE_A, rcode, rcode == NOERROR ? address(name, TYPE_A) : null);
        sent.sock().answer(b, sent.idAaaa(), name, TYPE_AAAA, rcode,
                rcode == NOERROR ? address(name, TYPE_AAAA) : null);
        return b;
    }

    /** The A and AAAA queries of one lookup, as {@link #sendBoth} sent them: their socket, ids and the AAAA's time. */
    private record Sent(DnsSocket sock, int idA, int idAaaa, long aaaa) {
    }

    /** glibc's A and AAAA for {@code name} from a new socket at {@code t}, the AAAA right behind the A (sendmmsg). */
    private Sent sendBoth(long t, Host client, Host vip, String name) {
        DnsSocket sock = new DnsSocket(client, vip);
        int idA = dnsRng.nextInt(65536);
        int idAaaa = otherId(idA);
        long aaaa = t + dnsRng.between(15, 120);
        sock.query(t, idA, name, TYPE_A);
        sock.query(aaaa, idAaaa, name, TYPE_AAAA);
        return new Sent(sock, idA, idAaaa, aaaa);
    }

    /** The AAAA query's id: random, and not the A's, so that an id alone tells the two apart as the eye reads them. */
    private int otherId(int idA) {
        int id;
        do {
            id = dnsRng.nextInt(65536);
        } while (id == idA);
        return id;
    }

    /**
     * The record data of a name's answer, null for none (NOERROR without data): a Service's ClusterIP (its IPv6
     * one only for the half of the Services that are dual-stack), an outside name's address.
     */
    private byte[] address(String name, int type) {
        int h = name.hashCode();
        if (name.endsWith(".cluster.local")) {
            Topology.Family f = topo.family(type == TYPE_AAAA);
            if (type == TYPE_AAAA && (h & 1) == 0) {
                return null;
            }
            return f.services[2 + Math.floorMod(h, f.services.length - 2)].ip;
        }
        Topology.Family f = topo.family(type == TYPE_AAAA);
        return f.external[Math.floorMod(h, f.external.length)].ip;
    }

    /**
     * A DNS message over UDP (RFC 1035 4.1): a query with RD, or an answer with its record (the owner a pointer to
     * the question's name) and, for NXDOMAIN and NOERROR without data, the zone's SOA in the authority section
     * (RFC 2308), as CoreDNS answers.
     */
    static byte[] dnsMessage(int id, int flags, String name, int type, int rcode, byte[] data) {
        byte[] qname = dnsName(name);
        boolean response = (flags & 0x8000) != 0;
        boolean soa = response && data == null && (rcode == NXDOMAIN || rcode == NOERROR);
        byte[] zone = soa ? dnsName(name.endsWith(".cluster.local") ? "cluster.local" : name.substring(name.indexOf('.') + 1))
                : null;
        byte[] soaData = soa ? soaRdata(zone) : null;
        int len = 12 + qname.length + 4 + (data != null ? 12 + data.length : 0)
                + (soa ? zone.length + 10 + soaData.length : 0);
        byte[] b = new byte[len];
        putShortBE(b, 0, id);
        putShortBE(b, 2, flags);
        putShortBE(b, 4, 1);
        putShortBE(b, 6, data != null ? 1 : 0);
        putShortBE(b, 8, soa ? 1 : 0);
        int o = 12;
        System.arraycopy(qname, 0, b, o, qname.length);
        o += qname.length;
        putShortBE(b, o, type);
        putShortBE(b, o + 2, 1);
        o += 4;
        if (data != null) {
            putShortBE(b, o, 0xc00c);
            putShortBE(b, o + 2, type);
            putShortBE(b, o + 4, 1);
            putIntBE(b, o + 6, 30);
            putShortBE(b, o + 10, data.length);
            System.arraycopy(data, 0, b, o + 12, data.length);
            o += 12 + data.length;
        }
        if (soa) {
            System.arraycopy(zone, 0, b, o, zone.length);
            o += zone.length;
            putShortBE(b, o, 6);
            putShortBE(b, o + 2, 1);
            putIntBE(b, o + 4, 5);
            putShortBE(b, o + 8, soaData.length);
            System.arraycopy(soaData, 0, b, o + 10, soaData.length);
        }
        return b;
    }

    /** A name in labels ("a.b." -> 1 'a' 1 'b' 0); a trailing dot changes nothing. */
    static byte[] dnsName(String name) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        int end = n.length > 0 && n[n.length - 1] == '.' ? n.length - 1 : n.length;
        byte[] b = new byte[end + 2];
        int o = 0;
        int start = 0;
        for (int i = 0; i <= end; i++) {
            if (i == end || n[i] == '.') {
                b[o++] = (byte) (i - start);
                System.arraycopy(n, start, b, o, i - start);
                o += i - start;
                start = i + 1;
            }
        }
        b[o] = 0;
        return b;
    }

    /** ns.dns.ZONE hostmaster.ZONE serial refresh retry expire minimum, as CoreDNS's kubernetes plugin writes it. */
    static byte[] soaRdata(byte[] zone) {
        byte[] ns = {2, 'n', 's', 3, 'd', 'n', 's'};
        byte[] hm = {10, 'h', 'o', 's', 't', 'm', 'a', 's', 't', 'e', 'r'};
        byte[] b = new byte[ns.length + zone.length + hm.length + zone.length + 20];
        int o = 0;
        for (byte[] part : new byte[][] {ns, zone, hm, zone}) {
            System.arraycopy(part, 0, b, o, part.length);
            o += part.length;
        }
        int[] times = {1_700_000_000, 7200, 1800, 86400, 5};
        for (int v : times) {
            putIntBE(b, o, v);
            o += 4;
        }
        return b;
    }

    private static String hostHeader(Dial d) {
        String a = Topology.format(d.server.ip);
        return (d.server.v6 ? "[" + a + "]" : a) + ":" + d.port;
    }

    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT).withZone(ZoneOffset.UTC);

    private static String httpDate(long t) {
        return HTTP_DATE.format(Instant.ofEpochSecond(BASE_SECONDS + t / 1_000_000));
    }

    // ---------------------------------------------------------------- packets

    /** One TCP conversation's sequence space, timestamps clocks, IP ids and flow labels. */
    private final class Conv {
        final Dial d;
        final int cport;
        final int isnC;
        final int isnS;
        final int clientTsOffset;
        final int serverTsOffset;
        final int clientFlow;
        final int serverFlow;
        int clientSeq;
        int serverSeq;
        int clientIpId;
        int serverIpId;
        int lastClientTs;
        int lastServerTs;

        Conv(Dial d) {
            this.d = d;
            this.cport = d.client.allocatePort();
            this.isnC = rng.nextInt();
            this.isnS = rng.nextInt();
            this.clientTsOffset = rng.nextInt();
            this.serverTsOffset = rng.nextInt();
            this.clientFlow = rng.nextInt(1 << 20);
            this.serverFlow = rng.nextInt(1 << 20);
            this.clientIpId = rng.nextInt(65536);
            this.serverIpId = rng.nextInt(65536);
        }

        int clientTs(long t) {
            return lastClientTs = clientTsOffset + (int) (t / 1000);
        }

        int serverTs(long t) {
            return lastServerTs = serverTsOffset + (int) (t / 1000);
        }

        Pkt syn(long t) {
            Pkt p = tcp(t, d.client, d.server, cport, d.port, SYN, isnC, 0, d.server.v6 ? 64_800 : 64_240,
                    OPT_SYN, clientTs(t), 0, clientIpId++, clientFlow);
            schedule(p);
            return p;
        }

        void synAck(long t) {
            schedule(tcp(t, d.server, d.client, d.port, cport, SYN | ACK, isnS, isnC + 1,
                    d.server.v6 ? 64_800 : 65_160, OPT_SYN, serverTs(t), lastClientTs, serverIpId++,
                    serverFlow));
            clientSeq = isnC + 1;
            serverSeq = isnS + 1;
        }

        void client(long t, int flags, Msg m, int off, int len) {
            Pkt p = tcp(t, d.client, d.server, cport, d.port, flags, clientSeq, serverSeq, 502, OPT_TS,
                    clientTs(t), lastServerTs, clientIpId++, clientFlow);
            attach(p, m, off, len);
            clientSeq += len + ((flags & FIN) != 0 ? 1 : 0);
            schedule(p);
        }

        void server(long t, int flags, Msg m, int off, int len) {
            Pkt p = tcp(t, d.server, d.client, d.port, cport, flags, serverSeq, clientSeq, 509, OPT_TS,
                    serverTs(t), lastClientTs, serverIpId++, serverFlow);
            attach(p, m, off, len);
            serverSeq += len + ((flags & FIN) != 0 ? 1 : 0);
            schedule(p);
        }

        /** Sends a message in MSS-sized segments, 10 per round trip (initial cwnd, RFC 6928); the
         * receiver ACKs every second segment and the last one. Returns the time of the last packet. */
        long send(long t, boolean fromClient, Msg m) {
            int mss = d.client.v6 ? 1428 : 1448;
            int len = m.length();
            int segments = 0;
            long ts = t;
            long end = t;
            for (int off = 0; off < len; ) {
                int n = Math.min(mss, len - off);
                boolean last = off + n == len;
                int flags = ACK | (last ? PSH : 0);
                if (fromClient) {
                    client(ts, flags, m, off, n);
                } else {
                    server(ts, flags, m, off, n);
                }
                off += n;
                segments++;
                if (segments % 2 == 0 || last) {
                    long ackTs = ts + rng.between(4, 20);
                    if (fromClient) {
                        if (segments > 1) {
                            server(ackTs + d.rtt, ACK, null, 0, 0);
                            end = Math.max(end, ackTs + d.rtt);
                        }
                    } else {
                        client(ackTs, ACK, null, 0, 0);
                        end = Math.max(end, ackTs);
                    }
                }
                if (!last) {
                    ts += segments % 10 == 0 ? d.rtt : rng.between(1, 6);
                }
            }
            return Math.max(end, ts);
        }
    }

    private static void attach(Pkt p, Msg m, int off, int len) {
        if (len > 0) {
            p.payLen = len;
            p.payOff = off;
            p.head = m.head;
            p.pool = m.pool;
            p.salt = m.salt;
        }
    }

    static Pkt tcp(long ts, Host src, Host dst, int sport, int dport, int flags, int seq, int ack,
            int win, int opt, int tsVal, int tsEcr, int ipId, int flow) {
        Pkt p = new Pkt();
        p.ts = ts;
        p.src = src;
        p.dst = dst;
        p.sport = sport;
        p.dport = dport;
        p.flags = flags;
        p.seq = seq;
        p.ack = ack;
        p.win = win;
        p.opt = opt;
        p.tsVal = tsVal;
        p.tsEcr = tsEcr;
        p.ipId = ipId;
        p.flow = flow;
        return p;
    }

    /** A UDP datagram carrying {@code payload}. */
    static Pkt udp(long ts, Host src, Host dst, int sport, int dport, byte[] payload) {
        Pkt p = new Pkt();
        p.ts = ts;
        p.src = src;
        p.dst = dst;
        p.sport = sport;
        p.dport = dport;
        p.udp = true;
        p.head = payload;
        p.payLen = payload.length;
        return p;
    }

    private Pkt icmp(long ts, Host src, Host dst, int type, int code, Pkt quoted, int quoteTtl,
            boolean minimalQuote) {
        Pkt p = new Pkt();
        p.ts = ts;
        p.src = src;
        p.dst = dst;
        p.icmpType = type;
        p.icmpCode = code;
        p.quote = quoted;
        p.quoteTtl = quoteTtl;
        p.quoteLen = minimalQuote ? 28 : ipLen(quoted);
        p.ipId = rng.nextInt(65536);
        p.tos = src.v6 ? 0 : 0xc0;   // Linux icmp_send(): IPTOS_PREC_INTERNETCONTROL
        p.dontFragment = false;
        return p;
    }

    static int tcpHeaderLen(int opt) {
        return opt == OPT_SYN ? 40 : opt == OPT_TS ? 32 : 20;
    }

    static int ipLen(Pkt p) {
        int ipHeader = p.src.v6 ? 40 : 20;
        if (p.quote != null) {
            return ipHeader + 8 + p.quoteLen;
        }
        return ipHeader + (p.udp ? 8 : tcpHeaderLen(p.opt)) + p.payLen;
    }

    static int frameLen(Pkt p) {
        int len = 14 + ipLen(p);
        return p.pad60 && len < 60 ? 60 : len;
    }

    /** A packet waiting in the time-ordered queue; rendered to bytes only when written. */
    static final class Pkt {
        long ts;
        long serial;
        Host src;
        Host dst;
        byte[] dstMac;
        int sport;
        int dport;
        int flags;
        int seq;
        int ack;
        int win;
        int opt;
        int tsVal;
        int tsEcr;
        int ipId;
        int flow;
        int ttl = 64;
        int tos;
        boolean dontFragment = true;
        boolean pad60;
        /** A UDP datagram: its payload is all of {@code head}. */
        boolean udp;
        int payLen;
        int payOff;
        byte[] head;
        byte[] pool;
        int salt;
        int icmpType;
        int icmpCode;
        Pkt quote;
        int quoteTtl;
        int quoteLen;
        int frameLen;
    }

    /** An application message: optional header text, then bytes from a pool at a per-message salt. */
    static final class Msg {
        final byte[] head;
        final int bodyLen;
        final byte[] pool;
        final int salt;

        private Msg(byte[] head, int bodyLen, byte[] pool, int salt) {
            this.head = head;
            this.bodyLen = Math.min(bodyLen, MAX_MESSAGE - (head == null ? 0 : head.length));
            this.pool = pool;
            this.salt = salt;
        }

        static Msg text(byte[] head, int bodyLen, byte[] pool, int salt) {
            return new Msg(head, bodyLen, pool, salt);
        }

        static Msg binary(int len, byte[] pool, int salt) {
            return new Msg(null, len, pool, salt);
        }

        int length() {
            return (head == null ? 0 : head.length) + bodyLen;
        }
    }

    static final class Dial {
        Host client;
        Host server;
        int port;
        int rtt;
        boolean probe;
        int dnsId;
        String dnsName;
    }

    // ---------------------------------------------------------------- pcap writing

    /** Classic pcap: 24-byte global header, then 16-byte record headers, all little-endian. */
    static final class PcapWriter implements AutoCloseable {
        private final OutputStream out;
        private final byte[] buf = new byte[1 << 22];
        private int pos;
        /** VXLAN's, or Geneve's, UDP port when every frame goes inside one, else 0. */
        private final int vxlan;
        private final int geneve;
        /** Every frame's IP packet inside IP in IP. */
        private final boolean ipip;
        /** The bytes in front of each frame (for IP in IP: beyond its own Ethernet header, which they replace). */
        private final int outer;
        long packets;
        /** Bytes as the trace without VXLAN would have them (the size target counts these: the same traffic either way). */
        long bytes;

        PcapWriter(Path path, int vxlan, int geneve, boolean ipip) throws IOException {
            this.vxlan = vxlan;
            this.geneve = geneve;
            this.ipip = ipip;
            outer = vxlan > 0 || geneve > 0 ? VXLAN_OUTER : ipip ? IPIP_OUTER : 0;
            out = new FileOutputStream(path.toFile());
            putIntLE(buf, 0, 0xa1b2c3d4);           // microsecond timestamps
            putShortLE(buf, 4, 2);
            putShortLE(buf, 6, 4);
            putIntLE(buf, 8, 0);                     // thiszone: UTC
            putIntLE(buf, 12, 0);                    // sigfigs
            putIntLE(buf, 16, SNAPLEN);
            putIntLE(buf, 20, LINKTYPE_ETHERNET);
            pos = 24;
            bytes = 24;
        }

        void write(Pkt p) throws IOException {
            if (pos + 16 + VXLAN_OUTER + MAX_FRAME > buf.length) {
                out.write(buf, 0, pos);
                pos = 0;
            }
            int len = renderFrame(p, buf, pos + 16 + outer);
            if (len != p.frameLen) {
                throw new IllegalStateException("frame length " + len + " != " + p.frameLen);
            }
            if (ipip) {
                ipipHeader(buf, pos + 16, len - 14, (int) packets);
                len += outer;
            } else if (outer > 0) {
                vxlanHeader(buf, pos + 16, len, (int) packets);
                len += outer;
            }
            putIntLE(buf, pos, (int) (BASE_SECONDS + p.ts / 1_000_000));
            putIntLE(buf, pos + 4, (int) (p.ts % 1_000_000));
            putIntLE(buf, pos + 8, len);
            putIntLE(buf, pos + 12, len);
            pos += 16 + len;
            packets++;
            bytes += 16 + len - outer;
        }

        /**
         * Ethernet, IPv4 198.51.100.2 > 198.51.100.3, UDP (source port by flow, as Linux hashes it) and VXLAN VNI 1, or
         * Geneve VNI 1 without options carrying an Ethernet frame.
         */
        private void vxlanHeader(byte[] b, int o, int inner, int n) {
            int udp = nodeHeaders(b, o, 17, 8 + 8 + inner, n);
            putShortBE(b, udp, 32768 + (n & 0x3fff));
            putShortBE(b, udp + 2, vxlan > 0 ? vxlan : geneve);
            putShortBE(b, udp + 4, 8 + 8 + inner);
            putShortBE(b, udp + 6, 0);
            putIntBE(b, udp + 8, vxlan > 0 ? 0x08000000 : 0x6558);
            putIntBE(b, udp + 12, 1 << 8);
        }

        /** The node's Ethernet and IPv4 headers over the frame's own Ethernet header: its {@code inner} bytes of IP in IP. */
        private void ipipHeader(byte[] b, int o, int inner, int n) {
            int type = (b[o + IPIP_OUTER + 12] & 0xff) << 8 | (b[o + IPIP_OUTER + 13] & 0xff);
            if (type != 0x0800 && type != 0x86dd) {
                throw new IllegalStateException("--ipip: a frame of type " + Integer.toHexString(type) + ", not IP");
            }
            nodeHeaders(b, o, type == 0x0800 ? 4 : 41, inner, n);
        }

        /** Ethernet and IPv4 198.51.100.2 > 198.51.100.3 at {@code o} for {@code payload} bytes of {@code protocol}; their end. */
        private static int nodeHeaders(byte[] b, int o, int protocol, int payload, int n) {
            byte[] macs = {2, 0, 0, 0, 2, 3, 2, 0, 0, 0, 1, 3};
            System.arraycopy(macs, 0, b, o, 12);
            putShortBE(b, o + 12, 0x0800);
            int ip = o + 14;
            b[ip] = 0x45;
            b[ip + 1] = 0;
            putShortBE(b, ip + 2, 20 + payload);
            putShortBE(b, ip + 4, n & 0xffff);
            putShortBE(b, ip + 6, 0);
            b[ip + 8] = 64;
            b[ip + 9] = (byte) protocol;
            putShortBE(b, ip + 10, 0);
            byte[] addrs = {(byte) 198, 51, 100, 2, (byte) 198, 51, 100, 3};
            System.arraycopy(addrs, 0, b, ip + 12, 8);
            int sum = 0;
            for (int i = 0; i < 20; i += 2) {
                sum += ((b[ip + i] & 0xff) << 8) | (b[ip + i + 1] & 0xff);
            }
            sum = (sum & 0xffff) + (sum >>> 16);
            sum = (sum & 0xffff) + (sum >>> 16);
            putShortBE(b, ip + 10, ~sum & 0xffff);
            return ip + 20;
        }

        @Override
        public void close() throws IOException {
            try {
                out.write(buf, 0, pos);
                pos = 0;
            } finally {
                out.close();
            }
        }
    }

    static int renderFrame(Pkt p, byte[] b, int o) {
        System.arraycopy(p.dstMac != null ? p.dstMac : p.dst.mac, 0, b, o, 6);
        System.arraycopy(p.src.mac, 0, b, o + 6, 6);
        putShortBE(b, o + 12, p.src.v6 ? 0x86dd : 0x0800);
        int len = 14 + renderIp(p, b, o + 14, p.ttl);
        if (p.pad60 && len < 60) {
            for (int i = len; i < 60; i++) {
                b[o + i] = 0;
            }
            len = 60;
        }
        return len;
    }

    /** Writes the IP packet at b[o]; returns its full length (for a quote, more than may be kept). */
    static int renderIp(Pkt p, byte[] b, int o, int ttl) {
        boolean v6 = p.src.v6;
        boolean icmp = p.quote != null;
        int header = v6 ? 40 : 20;
        int total = ipLen(p);
        int l4 = o + header;
        int l4Len = total - header;
        if (v6) {
            b[o] = (byte) (0x60 | ((p.tos >>> 4) & 0x0f));
            b[o + 1] = (byte) (((p.tos & 0x0f) << 4) | ((p.flow >>> 16) & 0x0f));
            putShortBE(b, o + 2, p.flow & 0xffff);
            putShortBE(b, o + 4, l4Len);
            b[o + 6] = (byte) (icmp ? 58 : p.udp ? 17 : 6);
            b[o + 7] = (byte) ttl;
            System.arraycopy(p.src.ip, 0, b, o + 8, 16);
            System.arraycopy(p.dst.ip, 0, b, o + 24, 16);
        } else {
            b[o] = 0x45;
            b[o + 1] = (byte) p.tos;
            putShortBE(b, o + 2, total);
            putShortBE(b, o + 4, p.ipId & 0xffff);
            putShortBE(b, o + 6, p.dontFragment ? 0x4000 : 0);
            b[o + 8] = (byte) ttl;
            b[o + 9] = (byte) (icmp ? 1 : p.udp ? 17 : 6);
            putShortBE(b, o + 10, 0);
            System.arraycopy(p.src.ip, 0, b, o + 12, 4);
            System.arraycopy(p.dst.ip, 0, b, o + 16, 4);
            putShortBE(b, o + 10, ~fold(sum(b, o, 20, 0)) & 0xffff);
        }
        if (icmp) {
            b[l4] = (byte) p.icmpType;
            b[l4 + 1] = (byte) p.icmpCode;
            putShortBE(b, l4 + 2, 0);
            putIntBE(b, l4 + 4, 0);                  // unused (v4) / unused (v6 type 1)
            renderIp(p.quote, b, l4 + 8, p.quoteTtl);
            long s = sum(b, l4, l4Len, 0);
            if (v6) {
                s = pseudoHeader(p, l4Len, 58, s);
            }
            putShortBE(b, l4 + 2, ~fold(s) & 0xffff);
        } else if (p.udp) {
            putShortBE(b, l4, p.sport);
            putShortBE(b, l4 + 2, p.dport);
            putShortBE(b, l4 + 4, l4Len);
            putShortBE(b, l4 + 6, 0);
            System.arraycopy(p.head, 0, b, l4 + 8, p.payLen);
            int c = ~fold(pseudoHeader(p, l4Len, 17, sum(b, l4, l4Len, 0))) & 0xffff;
            putShortBE(b, l4 + 6, c == 0 ? 0xffff : c);      // RFC 768: a computed zero is sent as all ones
        } else {
            renderTcp(p, b, l4);
            long s = pseudoHeader(p, l4Len, 6, sum(b, l4, l4Len, 0));
            putShortBE(b, l4 + 16, ~fold(s) & 0xffff);
        }
        return total;
    }

    static void renderTcp(Pkt p, byte[] b, int o) {
        int header = tcpHeaderLen(p.opt);
        putShortBE(b, o, p.sport);
        putShortBE(b, o + 2, p.dport);
        putIntBE(b, o + 4, p.seq);
        putIntBE(b, o + 8, p.ack);
        b[o + 12] = (byte) ((header / 4) << 4);
        b[o + 13] = (byte) p.flags;
        putShortBE(b, o + 14, p.win);
        putShortBE(b, o + 16, 0);
        putShortBE(b, o + 18, 0);
        int q = o + 20;
        if (p.opt == OPT_SYN) {
            b[q] = 2;                                // MSS
            b[q + 1] = 4;
            putShortBE(b, q + 2, p.src.v6 ? 1440 : 1460);
            b[q + 4] = 4;                            // SACK permitted
            b[q + 5] = 2;
            b[q + 6] = 8;                            // timestamps
            b[q + 7] = 10;
            putIntBE(b, q + 8, p.tsVal);
            putIntBE(b, q + 12, p.tsEcr);
            b[q + 16] = 1;                           // NOP
            b[q + 17] = 3;                           // window scale 7
            b[q + 18] = 3;
            b[q + 19] = 7;
        } else if (p.opt == OPT_TS) {
            b[q] = 1;
            b[q + 1] = 1;
            b[q + 2] = 8;
            b[q + 3] = 10;
            putIntBE(b, q + 4, p.tsVal);
            putIntBE(b, q + 8, p.tsEcr);
        }
        int d = o + header;
        int len = p.payLen;
        int off = p.payOff;
        if (p.head != null && off < p.head.length) {
            int n = Math.min(len, p.head.length - off);
            System.arraycopy(p.head, off, b, d, n);
            d += n;
            off += n;
            len -= n;
        }
        if (len > 0) {
            int from = (p.salt & POOL_MASK) + off - (p.head == null ? 0 : p.head.length);
            System.arraycopy(p.pool, from, b, d, len);
        }
    }

    private static long pseudoHeader(Pkt p, int l4Len, int proto, long s) {
        int addrLen = p.src.v6 ? 16 : 4;
        s = sum(p.src.ip, 0, addrLen, s);
        s = sum(p.dst.ip, 0, addrLen, s);
        return s + proto + l4Len;                    // v4: zero, proto, length; v6: length, next header
    }

    /** RFC 1071 one's-complement sum of big-endian 16-bit words, not yet folded. */
    static long sum(byte[] b, int off, int len, long acc) {
        int end = off + (len & ~1);
        long s = acc;
        for (int i = off; i < end; i += 2) {
            s += ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
        }
        if ((len & 1) != 0) {
            s += (b[end] & 0xff) << 8;
        }
        return s;
    }

    static int fold(long s) {
        while ((s >>> 16) != 0) {
            s = (s & 0xffff) + (s >>> 16);
        }
        return (int) s;
    }

    static void putShortBE(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 8);
        b[o + 1] = (byte) v;
    }

    static void putIntBE(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 24);
        b[o + 1] = (byte) (v >>> 16);
        b[o + 2] = (byte) (v >>> 8);
        b[o + 3] = (byte) v;
    }

    static void putLongBE(byte[] b, int o, long v) {
        putIntBE(b, o, (int) (v >>> 32));
        putIntBE(b, o + 4, (int) v);
    }

    static void putShortLE(byte[] b, int o, int v) {
        b[o] = (byte) v;
        b[o + 1] = (byte) (v >>> 8);
    }

    static void putIntLE(byte[] b, int o, int v) {
        b[o] = (byte) v;
        b[o + 1] = (byte) (v >>> 8);
        b[o + 2] = (byte) (v >>> 16);
        b[o + 3] = (byte) (v >>> 24);
    }

    // ---------------------------------------------------------------- topology

    static final class Host {
        final int id;
        final byte[] ip;
        final byte[] mac;
        final boolean v6;
        private final int portLow;
        private final int portHigh;
        private int nextPort;
        /** The next UDP port of a pod's resolver socket, -1 until its first (drawn from the lookups' stream). */
        int nextUdpPort = -1;

        Host(int id, byte[] ip, byte[] mac, int portLow, int portHigh) {
            this.id = id;
            this.ip = ip;
            this.mac = mac;
            this.v6 = ip.length == 16;
            this.portLow = portLow;
            this.portHigh = portHigh;
        }

        /** Ports go up by one from a random start, so every attempt of a client has its own port. */
        int allocatePort() {
            int p = nextPort;
            nextPort = p >= portHigh ? portLow : p + 1;
            return p;
        }
    }

    /**
     * One node (10.244.3.0/24 and fd00:10:244:3::/64 on cni0) in a dual-stack cluster. Local pods
     * have their own MACs (bridge CNI derives them from the IPv4 address); everything routed through
     * the node reaches the bridge with the bridge's MAC.
     */
    static final class Topology {
        static final byte[] BRIDGE_MAC = mac(0xc2, 0x1d, 0x7f, 0x3a, 0x5e, 0x01);
        static final byte[] NODE_MAC = mac(0x42, 0x01, 0x0a, 0x80, 0x00, 0x0b);
        static final byte[] UPSTREAM_MAC = mac(0x42, 0x01, 0x0a, 0x80, 0x00, 0x01);
        static final int[] APP_PORTS = {8080, 8080, 8080, 8080, 8080, 80, 6379, 6379, 5432, 3306, 50051, 53};
        static final int[] SERVICE_PORTS = {80, 80, 80, 8080, 8080, 53, 53, 6379, 6379, 5432, 3306, 443};
        static final String[] PATHS = {"/api/v1/orders", "/api/v1/users/42", "/v2/catalog?page=3",
            "/status", "/graphql", "/api/v1/cart", "/readyz", "/v1/metrics/summary"};
        static final String[] WORDS = {"checkout", "cart", "catalog", "payments", "users", "search",
            "ledger", "auth"};
        static final String[] NAMESPACES = {"default", "shop", "kube-system", "monitoring"};
        static final String[] AGENTS = {"Go-http-client/1.1", "python-requests/2.32.3", "curl/8.5.0",
            "okhttp/4.12.0", "Envoy/1.31"};

        final Family v4;
        final Family v6;
        final Host node4;
        final Host node6;
        final int[] servicePorts;
        private int nextId;

        static final class Family {
            Host gateway;
            Host[] pods;
            Host[] remotePods;
            Host[] services;
            Host[] external;
            Host[] loadBalancers;
            Host[] routers;
        }

        Topology(Rng r) {
            int pods = 240;
            int remoteNodes = 15;
            int remotePerNode = 60;
            int services = 80;
            v4 = new Family();
            v6 = new Family();
            v4.gateway = host(r, ip4(10, 244, 3, 1), BRIDGE_MAC, 10_000, 65_535);
            v6.gateway = host(r, ip6(0xfd00, 0x10, 0x244, 3, 1), BRIDGE_MAC, 10_000, 65_535);
            v4.pods = new Host[pods];
            v6.pods = new Host[pods];
            for (int i = 0; i < pods; i++) {
                byte[] a = ip4(10, 244, 3, 2 + i);
                byte[] m = mac(0x0a, 0x58, 10, 244, 3, 2 + i);
                v4.pods[i] = host(r, a, m, 32_768, 60_999);
                v6.pods[i] = host(r, ip6(0xfd00, 0x10, 0x244, 3, 2 + i), m, 32_768, 60_999);
            }
            v4.remotePods = new Host[remoteNodes * remotePerNode];
            v6.remotePods = new Host[remoteNodes * remotePerNode];
            for (int n = 0; n < remoteNodes; n++) {
                int subnet = n < 3 ? n : n + 1;          // skip our own 10.244.3.0/24
                for (int i = 0; i < remotePerNode; i++) {
                    int k = n * remotePerNode + i;
                    v4.remotePods[k] = host(r, ip4(10, 244, subnet, 2 + i), BRIDGE_MAC, 32_768, 60_999);
                    v6.remotePods[k] = host(r, ip6(0xfd00, 0x10, 0x244, subnet, 2 + i), BRIDGE_MAC,
                            32_768, 60_999);
                }
            }
            servicePorts = new int[services];
            v4.services = new Host[services];
            v6.services = new Host[services];
            Set<Integer> used = new HashSet<>();
            for (int i = 0; i < services; i++) {
                int low;
                if (i == 0) {
                    low = 1;                               // kubernetes.default
                    servicePorts[i] = 443;
                } else if (i == 1) {
                    low = 10;                              // kube-dns
                    servicePorts[i] = 53;
                } else {
                    do {
                        low = 2 + r.nextInt(0xfffe);
                    } while (low == 10 || !used.add(low));
                    servicePorts[i] = SERVICE_PORTS[r.nextInt(SERVICE_PORTS.length)];
                }
                used.add(low);
                v4.services[i] = host(r, ip4(10, 96, low >>> 8, low & 0xff), BRIDGE_MAC, 0, 0);
                v6.services[i] = host(r, ip6(0xfd00, 0x10, 0x96, 0, low), BRIDGE_MAC, 0, 0);
            }
            int[][] docNets = {{192, 0, 2}, {198, 51, 100}, {203, 0, 113}};
            v4.external = new Host[48];
            v6.external = new Host[48];
            for (int i = 0; i < 48; i++) {
                int[] net = docNets[i % 3];
                v4.external[i] = host(r, ip4(net[0], net[1], net[2], 10 + i), BRIDGE_MAC, 0, 0);
                v6.external[i] = host(r, ip6(0x2001, 0xdb8, 0xe, i, 0x10 + i), BRIDGE_MAC, 0, 0);
            }
            v4.loadBalancers = new Host[8];
            v6.loadBalancers = new Host[8];
            for (int i = 0; i < 8; i++) {
                v4.loadBalancers[i] = host(r, ip4(203, 0, 113, 200 + i), BRIDGE_MAC, 0, 0);
                v6.loadBalancers[i] = host(r, ip6(0x2001, 0xdb8, 0x1b, 0, 0x200 + i), BRIDGE_MAC, 0, 0);
            }
            v4.routers = new Host[] {
                host(r, ip4(10, 128, 0, 1), BRIDGE_MAC, 0, 0),
                host(r, ip4(192, 0, 2, 254), BRIDGE_MAC, 0, 0)};
            v6.routers = new Host[] {
                host(r, ip6(0x2001, 0xdb8, 0, 1, 1), BRIDGE_MAC, 0, 0),
                host(r, ip6(0x2001, 0xdb8, 0xffff, 0, 1), BRIDGE_MAC, 0, 0)};
            node4 = host(r, ip4(10, 128, 0, 11), NODE_MAC, 0, 0);
            node6 = host(r, ip6(0x2001, 0xdb8, 0, 1, 0x11), NODE_MAC, 0, 0);
        }

        Family family(boolean isV6) {
            return isV6 ? v6 : v4;
        }

        private Host host(Rng r, byte[] ip, byte[] mac, int portLow, int portHigh) {
            Host h = new Host(nextId++, ip, mac, portLow, portHigh);
            h.nextPort = portHigh > portLow ? r.between(portLow, portHigh) : 0;
            return h;
        }

        static int backendPort(int servicePort) {
            switch (servicePort) {
                case 80: return 8080;
                case 443: return 8443;
                case 53: return 5353;
                default: return servicePort;
            }
        }

        static byte[] ip4(int a, int b, int c, int d) {
            return new byte[] {(byte) a, (byte) b, (byte) c, (byte) d};
        }

        /** prefix:prefix:prefix:subnet::low, e.g. fd00:10:244:3::2. */
        static byte[] ip6(int w0, int w1, int w2, int w3, int low) {
            byte[] a = new byte[16];
            putShortBE(a, 0, w0);
            putShortBE(a, 2, w1);
            putShortBE(a, 4, w2);
            putShortBE(a, 6, w3);
            putShortBE(a, 14, low);
            return a;
        }

        static byte[] mac(int... bytes) {
            byte[] m = new byte[6];
            for (int i = 0; i < 6; i++) {
                m[i] = (byte) bytes[i];
            }
            return m;
        }

        static String format(byte[] ip) {
            if (ip.length == 4) {
                return (ip[0] & 0xff) + "." + (ip[1] & 0xff) + "." + (ip[2] & 0xff) + "." + (ip[3] & 0xff);
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 16; i += 2) {
                if (i > 0) {
                    sb.append(':');
                }
                sb.append(Integer.toHexString(((ip[i] & 0xff) << 8) | (ip[i + 1] & 0xff)));
            }
            return sb.toString();
        }
    }

    private static byte[] textPool(Rng r) {
        String[] words = Topology.WORDS;
        byte[] b = new byte[POOL + MAX_MESSAGE];
        StringBuilder sb = new StringBuilder(b.length + 256);
        while (sb.length() < b.length) {
            sb.append("{\"name\":\"").append(words[r.nextInt(words.length)]).append('-')
                    .append(Integer.toHexString(r.nextInt(1 << 20))).append("\",\"ready\":")
                    .append(r.chance(0.9)).append(",\"restarts\":").append(r.nextInt(5))
                    .append(",\"latency_ms\":").append(r.nextInt(500)).append("},\n");
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) sb.charAt(i);
        }
        return b;
    }

    private <T> T pick(T[] a) {
        return a[rng.nextInt(a.length)];
    }

    private int pick(int[] a) {
        return a[rng.nextInt(a.length)];
    }

    // ---------------------------------------------------------------- randomness

    /** SplitMix64 finalizer: a bijection on 64 bits, so distinct counters give distinct values. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** murmur3 fmix32: a bijection on 32 bits. */
    static int mix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** SplitMix64 (Steele, Lea, Flood 2014): fully specified here so output never depends on the JDK. */
    static final class Rng {
        private long state;

        Rng(long seed) {
            state = seed;
        }

        long nextLong() {
            return mix64(state += 0x9E3779B97F4A7C15L);
        }

        int nextInt() {
            return (int) (nextLong() >>> 32);
        }

        /** Uniform in [0, bound). */
        int nextInt(int bound) {
            return (int) (((nextLong() >>> 33) * bound) >>> 31);
        }

        /** Uniform in [low, high]. */
        int between(int low, int high) {
            return low + nextInt(high - low + 1);
        }

        double nextDouble() {
            return (nextLong() >>> 11) * 0x1.0p-53;
        }

        boolean chance(double p) {
            return nextDouble() < p;
        }

        /** Exponentially distributed with the given mean (Poisson arrivals). */
        long exp(double mean) {
            return (long) (-StrictMath.log(1 - nextDouble()) * mean);
        }

        /** Log-uniform in [low, high]: many short delays, a long tail. */
        int logUniform(int low, int high) {
            return (int) (low * StrictMath.exp(nextDouble() * StrictMath.log((double) high / low)));
        }
    }

    // ---------------------------------------------------------------- options and summary

    public static final class Options {
        long seed = 1;
        Path out;
        long packets = -1;
        int scale = 1;
        long synFlood = -1;
        long shortConnections = -1;
        long dnsLookups = -1;
        long openConnections = -1;
        int vxlan;
        int geneve;
        boolean ipip;
        boolean dns;
        boolean help;

        public static Options parse(String... args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                String v = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    v = a.substring(eq + 1);
                    a = a.substring(0, eq);
                }
                if (a.equals("-h") || a.equals("--help")) {
                    o.help = true;
                    continue;
                }
                if (a.equals("--ipip")) {
                    o.ipip = true;
                    continue;
                }
                if (a.equals("--dns")) {
                    o.dns = true;
                    continue;
                }
                if (v == null) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    v = args[++i];
                }
                switch (a) {
                    case "--seed": o.seed = number(a, v, Long.MIN_VALUE); break;
                    case "--out": o.out = Paths.get(v); break;
                    case "--packets": o.packets = number(a, v, 1); break;
                    case "--scale": o.scale = (int) number(a, v, 1); break;
                    case "--syn-flood": o.synFlood = number(a, v, 0); break;
                    case "--short-connections": o.shortConnections = number(a, v, 1); break;
                    case "--dns-lookups": o.dnsLookups = number(a, v, 1); break;
                    case "--open-connections": o.openConnections = number(a, v, 1); break;
                    case "--vxlan": o.vxlan = (int) number(a, v, 1); break;
                    case "--geneve": o.geneve = (int) number(a, v, 1); break;
                    default: throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (!o.help && o.out == null) {
                throw new IllegalArgumentException("--out FILE is required");
            }
            if ((o.synFlood >= 0 ? 1 : 0) + (o.shortConnections > 0 ? 1 : 0) + (o.dnsLookups > 0 ? 1 : 0)
                    + (o.openConnections > 0 ? 1 : 0) > 1) {
                throw new IllegalArgumentException(
                        "--syn-flood, --short-connections, --dns-lookups and --open-connections: one at most");
            }
            if ((o.vxlan > 0 ? 1 : 0) + (o.geneve > 0 ? 1 : 0) + (o.ipip ? 1 : 0) > 1) {
                throw new IllegalArgumentException("--vxlan, --geneve and --ipip: one at most");
            }
            return o;
        }

        private static long number(String option, String v, long min) {
            try {
                long n = Long.parseLong(v.replace("_", ""));
                if (n < min) {
                    throw new IllegalArgumentException(option + " must be at least " + min + ": " + v);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " expects a number: " + v, e);
            }
        }
    }

    /** What was written, and the findings pcapdiag is expected to report for it. */
    public static final class Summary {
        public final String kind;
        public final long seed;
        public final long packets;
        public final long bytes;
        public final long attempts;
        public final long dnsQueries;
        /** Planted attempts per pattern, indexed like {@link #PATTERNS} followed by {@link #DNS_PATTERNS}. */
        public final long[] findings;
        public final long captureMicros;

        Summary(String kind, long seed, long packets, long bytes, long attempts, long dnsQueries, long[] findings,
                long captureMicros) {
            this.kind = kind;
            this.seed = seed;
            this.packets = packets;
            this.bytes = bytes;
            this.attempts = attempts;
            this.dnsQueries = dnsQueries;
            this.findings = findings;
            this.captureMicros = captureMicros;
        }

        public long findings(String pattern) {
            for (int i = 0; i < findings.length; i++) {
                if (pattern(i).equals(pattern)) {
                    return findings[i];
                }
            }
            throw new IllegalArgumentException(pattern);
        }

        static String pattern(int i) {
            return i < PATTERNS.length ? PATTERNS[i] : DNS_PATTERNS[i - PATTERNS.length];
        }

        String toJson() {
            StringBuilder sb = new StringBuilder();
            sb.append("{\n  \"generator\": \"io.pcapdiag.bench.NodeTraceGenerator\",\n")
                    .append("  \"kind\": \"").append(kind).append("\",\n")
                    .append("  \"seed\": ").append(seed).append(",\n")
                    .append("  \"packets\": ").append(packets).append(",\n")
                    .append("  \"bytes\": ").append(bytes).append(",\n")
                    .append("  \"capture_seconds\": ")
                    .append(String.format(Locale.ROOT, "%.6f", captureMicros / 1e6)).append(",\n")
                    .append("  \"attempts\": ").append(attempts).append(",\n")
                    .append("  \"dns_queries\": ").append(dnsQueries).append(",\n")
                    .append("  \"findings\": {");
            for (int i = 0; i < findings.length; i++) {
                sb.append(i == 0 ? "\n" : ",\n").append("    \"").append(pattern(i)).append("\": ")
                        .append(findings[i]);
            }
            return sb.append("\n  }\n}\n").toString();
        }
    }
}
