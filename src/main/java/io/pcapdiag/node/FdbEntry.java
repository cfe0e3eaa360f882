package io.pcapdiag.node;

/**
 * One entry of a bridge's forwarding database (struct __fdb_entry of linux/if_bridge.h): a MAC address and the
 * bridge port it was learned on (or is local to).
 *
 * @param port the port's interface name, or null when no port of the bridge has that number
 */
public record FdbEntry(String mac, int portNo, String port, boolean local) {
}
