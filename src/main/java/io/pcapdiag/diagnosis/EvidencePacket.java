package io.pcapdiag.diagnosis;

/**
 * One evidence packet of a diagnosis.
 *
 * @param role      what it is in the story
 * @param capture   the capture it is in, as the user named it
 * @param frame     its frame number there (tcpdump/Wireshark numbering, from 1)
 * @param nanos     capture time, nanoseconds since the epoch (UTC)
 * @param iface     where it was captured (pcapng interface name, or {@code ifindex N In} for -i any), or null
 * @param interfaceName the interface alone, named as {@link PathHop#iface()} names it, or null
 * @param direction in or out of that interface, as {@link PathHop#direction()} says it, or null
 * @param summary   the packet as {@code tcpdump -n} prints it
 */
public record EvidencePacket(Role role, String capture, long frame, long nanos, String iface, String interfaceName,
                             String direction, String summary) {
}
