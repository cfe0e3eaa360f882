/**
 * Stateless packet decoding: link layer, IPv4/IPv6, tunnels, TCP and ICMP/ICMPv6 errors into one reusable
 * {@link io.pcapdiag.decode.PacketView}, and the addresses it holds ({@link Endpoint}, {@link Ip}); truncated and
 * malformed input are flags, never exceptions.
 */
package io.pcapdiag.decode;
