/**
 * Stateless packet decoding: link layer, IPv4/IPv6, TCP and ICMP/ICMPv6 errors into one reusable
 * {@link io.pcapdiag.decode.PacketView}; truncated and malformed input are flags, never exceptions.
 */
package io.pcapdiag.decode;
