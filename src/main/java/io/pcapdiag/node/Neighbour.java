package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;

/**
 * One IPv4 neighbour (ARP) entry from /proc/net/arp.
 *
 * @param state {@code permanent} (ATF_PERM), {@code complete} (ATF_COM: a valid entry, reachable or stale), or
 *              {@code incomplete} (resolution pending or failed: the MAC is all zeroes)
 */
public record Neighbour(Endpoint address, String mac, String device, String state) {
}
