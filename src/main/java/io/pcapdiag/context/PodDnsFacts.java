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
}
