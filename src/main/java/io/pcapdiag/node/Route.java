package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;
import java.util.List;

/**
 * One route from /proc/net/route (IPv4, main table) or /proc/net/ipv6_route (IPv6, every table: the file does not
 * name them; routes of the local table carry the {@code local} flag).
 *
 * @param gateway null for a directly connected route
 * @param flags   the RTF_* flags set, by name ({@code up}, {@code gateway}, {@code host}, {@code reject}, ...)
 */
public record Route(InterfaceAddress destination, Endpoint gateway, String device, long metric, List<String> flags) {
}
