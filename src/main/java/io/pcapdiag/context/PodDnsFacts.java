package io.pcapdiag.context;

import java.util.List;
import java.util.OptionalInt;

/**
 * What the cluster says about how a pod resolves names (its {@code spec.dnsPolicy} and {@code spec.dnsConfig}), as far
 * as causes need it: {@code dns-ndots} holds when the policy is ClusterFirst and no dnsConfig lowers {@code ndots}.
 *
 * @param pod         the pod, as reports name it
 * @param dnsPolicy   ClusterFirst (also when the spec sets none), ClusterFirstWithHostNet, Default or None; null when
 *                    the snapshot's value is none of these
 * @param ndots       the dnsConfig's {@code ndots} option when it sets one with a number; else empty (none given: the
 *                    kubelet writes 5 for ClusterFirst; or the last one given is no number, which the snapshot's
 *                    problems say)
 * @param searches    the dnsConfig's search domains
 * @param nameservers the dnsConfig's nameservers
 * @param fact        the sentence stating them, with its source
 */
public record PodDnsFacts(Ref pod, String dnsPolicy, OptionalInt ndots, List<String> searches, List<String> nameservers,
                          Fact fact) {
    public PodDnsFacts {
        searches = List.copyOf(searches);
        nameservers = List.copyOf(nameservers);
    }

    /**
     * Whether the kubelet gives the pod the cluster's resolv.conf (the DNS Service, the search list, ndots:5 unless
     * dnsConfig sets it): ClusterFirst, and ClusterFirstWithHostNet, which is ClusterFirst for a pod with an address of
     * its own (pkg/kubelet/network/dns, getPodDNSType), the only pods looked up by address.
     */
    public boolean usesClusterDns() {
        return "ClusterFirst".equals(dnsPolicy) || "ClusterFirstWithHostNet".equals(dnsPolicy);
    }
}
