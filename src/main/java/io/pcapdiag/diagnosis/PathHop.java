package io.pcapdiag.diagnosis;

import io.pcapdiag.decode.Endpoint;

/**
 * One place an attempt's SYN was seen, in the order it got there.
 *
 * @param capture     the capture it was seen in
 * @param frame       the frame there
 * @param nanos       when (capture time)
 * @param node        the node the capture is from ({@code --label}, node facts), or null when unknown
 * @param iface       the interface (pcapng name, node facts' name for an ifindex, the label's), or
 *                    {@code ifindex N} when only the index is known, or null when the capture says nothing
 * @param direction   in or out of that interface, when the capture tells (Linux cooked captures), else null
 * @param destination where the SYN was addressed there: the dialed address, or the DNAT'ed one
 * @param afterDnat   the destination differs from what the client dialed
 * @param tunnel      the tunnel it was inside there, e.g. {@code VXLAN 198.51.100.2 > 198.51.100.3 vni 1}, or null
 */
public record PathHop(String capture, long frame, long nanos, String node, String iface, String direction,
                      Endpoint destination, boolean afterDnat, String tunnel) {
    /** {@code node-a eth0 out} / {@code veth-a in}: where, as reports name it. */
    public String place() {
        StringBuilder sb = new StringBuilder();
        if (node != null) {
            sb.append(node);
        }
        if (iface != null) {
            sb.append(sb.length() > 0 ? " " : "").append(iface);
        }
        if (sb.length() == 0) {
            sb.append(capture);
        }
        if (direction != null) {
            sb.append(' ').append(direction);
        }
        return sb.toString();
    }
}
