package io.pcapdiag.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodDNSConfigOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * How a pod resolves names, as its spec says: {@code spec.dnsPolicy} and {@code spec.dnsConfig}. The kubelet writes
 * the pod's resolv.conf from them (pkg/kubelet/network/dns): for ClusterFirst the cluster DNS Service's address,
 * {@code search <ns>.svc.<domain> svc.<domain> <domain>} and {@code options ndots:5}, then dnsConfig's nameservers,
 * searches and options merged over those; for None only dnsConfig's.
 *
 * @param namespace   the pod's namespace
 * @param name        the pod's name
 * @param dnsPolicy   ClusterFirst when the spec has none (the API server defaults it so), or ClusterFirstWithHostNet,
 *                    Default, None; null when the snapshot's value is none of these (the API server refuses it)
 * @param ndots       dnsConfig's {@code ndots} option when given with a number (the last one given); empty when none is
 *                    given or the last one is no number
 * @param searches    dnsConfig's search domains, as written
 * @param nameservers dnsConfig's nameservers that are IP addresses, as written
 */
public record PodDns(String namespace, String name, String dnsPolicy, OptionalInt ndots, List<String> searches,
                     List<String> nameservers) {
    /** The policy the API server sets when a pod's spec has none (pkg/apis/core/v1/defaults.go, SetDefaults_PodSpec). */
    public static final String DEFAULT_POLICY = "ClusterFirst";
    /** The policies the API server accepts (pkg/apis/core/validation, validateDNSPolicy). */
    static final Set<String> POLICIES = Set.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");

    public PodDns {
        searches = List.copyOf(searches);
        nameservers = List.copyOf(nameservers);
    }

    /** A pod's DNS settings; what cannot be used is left out as {@link BadValues} says it for a snapshot. */
    static PodDns of(Pod p) {
        String policy = p.getSpec() == null ? null : p.getSpec().getDnsPolicy();
        policy = policy == null || policy.isEmpty() ? DEFAULT_POLICY : POLICIES.contains(policy) ? policy : null;
        PodDNSConfig c = p.getSpec() == null ? null : p.getSpec().getDnsConfig();
        OptionalInt ndots = OptionalInt.empty();
        List<String> searches = new ArrayList<>();
        List<String> nameservers = new ArrayList<>();
        if (c != null) {
            for (PodDNSConfigOption o : c.getOptions() == null ? List.<PodDNSConfigOption>of() : c.getOptions()) {
                if ("ndots".equals(o.getName())) {
                    // The kubelet merges options by name, the last one written wins (dns.go, mergeDNSOptions), also over
                    // a number before it when it is none.
                    ndots = ndots(o.getValue());
                }
            }
            if (c.getSearches() != null) {
                searches.addAll(c.getSearches());
            }
            for (String ns : c.getNameservers() == null ? List.<String>of() : c.getNameservers()) {
                if (ClusterIndex.address(ns).isPresent()) {
                    nameservers.add(ns);
                }
            }
        }
        return new PodDns(p.getMetadata().getNamespace(), p.getMetadata().getName(), policy, ndots, searches, nameservers);
    }

    /**
     * An {@code ndots} option's value as a number: decimal digits only. The API server accepts any string there and the
     * resolvers part ways on the rest (glibc's res_init reads "abc" as 0 with atoi, musl ignores it), so a value that is
     * not a number is said and not used. Both resolvers cap the number at 15 (RES_MAXNDOTS); the value is kept as
     * written.
     */
    static OptionalInt ndots(String value) {
        if (value == null || value.isEmpty() || value.length() > 9 || !value.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(value));
    }

    /** Why an ndots option's value cannot be used, or empty. */
    static Optional<String> unreadableNdots(String value) {
        if (value == null) {
            return Optional.of("ndots has no value (the resolvers ignore it)");
        }
        return ndots(value).isPresent() ? Optional.empty() : Optional.of("'" + value + "' is not a number of dots");
    }
}
