package io.pcapdiag.causes;

import static io.pcapdiag.testing.PacketScript.MS;

import io.pcapdiag.context.Context;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.testing.TcpBuilder;
import java.util.List;

/**
 * One TCP connection followed past its handshake, as a node's {@code -i any} records it (each segment on an interface
 * index, see {@link PacketScript#packetOn}), or a capture without interfaces ({@code ifIndex} -1: a pod's eth0). The
 * three established-connection patterns are scripted as the lab reproduces them (captures/README.md).
 */
final class ConnectionScript {
    static final String CLIENT = "10.244.0.18";
    static final int CLIENT_PORT = 40001;
    static final int CLIENT_ISN = 1000;
    static final int SERVER_ISN = 5000;

    final PacketScript script;

    ConnectionScript(List<Context> context) {
        script = new PacketScript(context);
    }

    /** A segment of {@code len} bytes of data at {@code t}, on interface {@code ifIndex} (-1: none named). */
    ConnectionScript seg(long t, int ifIndex, String src, int sport, String dst, int dport, int seq, int ack, int flags, int len) {
        TcpBuilder tcp = TcpBuilder.tcp(sport, dport).seq(seq).ack(ack).flags(flags).window(502).payload(new byte[len]);
        if ((flags & TcpBuilder.SYN) != 0) {
            tcp.options(TcpBuilder.mss(1460));
        }
        byte[] ip = Ipv4Builder.ipv4(src, dst).dontFragment(true).tcp(tcp).build();
        if (ifIndex < 0) {
            script.rawPacket(t, ip, null);
        } else {
            script.packetOn(t, ip, ifIndex);
        }
        return this;
    }

    /**
     * {@link #CLIENT} dials {@code server}:{@code port} on {@code clientIf}; the server answers on {@code serverIf} (its
     * pod's veth): the handshake, a 53-byte request and an 83-byte answer, each acknowledged, by 5 ms.
     */
    ConnectionScript handshake(int clientIf, String server, int port, int serverIf) {
        int tcpAck = TcpBuilder.ACK;
        seg(0, clientIf, CLIENT, CLIENT_PORT, server, port, CLIENT_ISN, 0, TcpBuilder.SYN, 0);
        seg(MS, serverIf, server, port, CLIENT, CLIENT_PORT, SERVER_ISN, CLIENT_ISN + 1, TcpBuilder.SYN | tcpAck, 0);
        seg(2 * MS, clientIf, CLIENT, CLIENT_PORT, server, port, CLIENT_ISN + 1, SERVER_ISN + 1, tcpAck, 0);
        seg(3 * MS, clientIf, CLIENT, CLIENT_PORT, server, port, CLIENT_ISN + 1, SERVER_ISN + 1, tcpAck | TcpBuilder.PSH, 53);
        seg(4 * MS, serverIf, server, port, CLIENT, CLIENT_PORT, SERVER_ISN + 1, CLIENT_ISN + 54, tcpAck | TcpBuilder.PSH, 83);
        seg(5 * MS, clientIf, CLIENT, CLIENT_PORT, server, port, CLIENT_ISN + 54, SERVER_ISN + 84, tcpAck, 0);
        return this;
    }

    /**
     * The server's full-size segment (1448 bytes of data, a 1500-byte packet with DF) first sent on {@code serverIf} at
     * 6 ms and sent again 4 times, never acknowledged: pmtu-blackhole, as node B's {@code -i any} shows it.
     */
    static ConnectionScript blackhole(List<Context> context, int clientIf, int serverIf, String server) {
        ConnectionScript c = new ConnectionScript(context).handshake(clientIf, server, 80, serverIf);
        for (long t : new long[] {6, 215, 635, 1467, 3127}) {
            c.seg(t * MS, serverIf, server, 80, CLIENT, CLIENT_PORT, SERVER_ISN + 84, CLIENT_ISN + 54, TcpBuilder.ACK, 1448);
        }
        return c;
    }

    /** The one finding of {@code pattern}. */
    Finding only(Pattern pattern) {
        List<Finding> fs = script.findings().stream().filter(f -> f.pattern() == pattern).toList();
        if (fs.size() != 1) {
            throw new AssertionError("one " + pattern.id() + " expected: " + script.findings());
        }
        return fs.get(0);
    }
}
