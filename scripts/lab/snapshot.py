#!/usr/bin/env python3
"""Writes the cluster snapshot a real cluster would show for a lab scenario (Python standard library only).

  snapshot.py SCENARIO OUT.json [--contradicting]

The output is one `List`, as `kubectl get services,endpointslices,pods,nodes,networkpolicies -A -o json`
and `kubectl -n kube-system get configmap kube-proxy -o json` print them, holding the objects behind the
lab's addresses (scripts/lab/lib.sh): the node (pdlab-node) and a second node that exists only in the
cluster (pdlab-node-b, where endpoints live that are not on the recorded node), the pods, the Services
each scenario dials and their EndpointSlices, and the kube-proxy ConfigMap with the mode the scenario
stands in for. --contradicting writes the same cluster changed so that the cause the scenario reproduces
is ruled out (an endpoint on this node, ipMode: Proxy, a ready endpoint, a policy admitting the client,
the deleted DNS pod still an endpoint, ndots:1, the deleted backend still ready), for the goldens that
show a contradicted cause. The DNS scenarios add the kube-dns Service in kube-system, its EndpointSlice
and CoreDNS pods, and the client pod's dnsPolicy (and dnsConfig); the established-connection scenarios
Service api and, for the gone endpoint, its terminating pod.
"""
import argparse
import hashlib
import json
import sys

NODE, NODE_B = "pdlab-node", "pdlab-node-b"
CREATED = "2026-11-20T09:00:00Z"


def meta(name, namespace=None, labels=None, owner=None, uid=None):
    # A fixed uid per object, so that a snapshot written again is byte for byte the same.
    digest = hashlib.sha256(((namespace or "") + "/" + name).encode()).hexdigest()
    m = {"name": name, "creationTimestamp": CREATED,
         "uid": uid or digest[0:8] + "-" + digest[8:12] + "-4" + digest[13:16] + "-8" + digest[17:20] + "-" + digest[20:32]}
    if namespace:
        m["namespace"] = namespace
    if labels:
        m["labels"] = labels
    if owner:
        kind, oname = owner
        m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": kind, "name": oname, "controller": True,
                                 "blockOwnerDeletion": True, "uid": "00000000-0000-4000-8000-0000000000aa"}]
    return m


def node(name, ips, cidrs):
    addresses = [{"type": "InternalIP", "address": ip} for ip in ips] + [{"type": "Hostname", "address": name}]
    return {"apiVersion": "v1", "kind": "Node", "metadata": meta(name, labels={"kubernetes.io/hostname": name}),
            "spec": {"podCIDR": cidrs[0], "podCIDRs": cidrs},
            "status": {"addresses": addresses, "conditions": [{"type": "Ready", "status": "True"}]}}


def pod(name, app, ips, on, rs):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": meta(name, "default", {"app": app, "pod-template-hash": rs.rsplit("-", 1)[1]}, ("ReplicaSet", rs)),
            "spec": {"nodeName": on, "containers": [{"name": app, "image": "registry.example/" + app + ":1.0",
                                                      "ports": [{"name": "http", "containerPort": 80, "protocol": "TCP"}]}]},
            "status": {"phase": "Running", "podIP": ips[0], "podIPs": [{"ip": ip} for ip in ips],
                       "conditions": [{"type": "Ready", "status": "True"}]}}


def service(name, selector, ports, cluster_ips, stype="ClusterIP", etp=None, lb=None):
    spec = {"type": stype, "selector": selector, "clusterIP": cluster_ips[0], "clusterIPs": cluster_ips,
            "ipFamilies": ["IPv6" if ":" in ip else "IPv4" for ip in cluster_ips],
            "ipFamilyPolicy": "PreferDualStack" if len(cluster_ips) > 1 else "SingleStack",
            "ports": ports, "sessionAffinity": "None", "internalTrafficPolicy": "Cluster"}
    if etp:
        spec["externalTrafficPolicy"] = etp
    status = {"loadBalancer": {}}
    if lb:
        status["loadBalancer"] = {"ingress": lb}
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, "default"), "spec": spec, "status": status}


def port(name, p, target, node_port=None):
    d = {"name": name, "port": p, "targetPort": target, "protocol": "TCP"}
    if node_port:
        d["nodePort"] = node_port
    return d


def slice_(svc, family, endpoints, port_name="http", target=80):
    eps = []
    for ip, on, pod_name in endpoints:
        eps.append({"addresses": [ip], "conditions": {"ready": True, "serving": True, "terminating": False},
                    "nodeName": on, "targetRef": {"kind": "Pod", "namespace": "default", "name": pod_name}})
    suffix = "v6" if family == "IPv6" else "v4"
    return {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": meta(svc + "-" + suffix, "default", {"kubernetes.io/service-name": svc,
                                                            "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}),
            "addressType": family, "endpoints": eps,
            "ports": [{"name": port_name, "port": target, "protocol": "TCP"}]}


def kube_proxy(mode):
    conf = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: \"" + mode + "\"\n"
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("kube-proxy", "kube-system", {"app": "kube-proxy"}),
            "data": {"config.conf": conf}}


def policy(name, app, contradicting):
    """Only frontend pods may reach the app's pods on port 80; contradicting: the client pods too."""
    admitted = [{"podSelector": {"matchLabels": {"app": "frontend"}}}]
    if contradicting:
        admitted.append({"podSelector": {"matchLabels": {"app": "client"}}})
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": meta(name, "default"),
            "spec": {"podSelector": {"matchLabels": {"app": app}}, "policyTypes": ["Ingress"],
                     "ingress": [{"from": admitted, "ports": [{"protocol": "TCP", "port": 80}]}]}}


A = ("10.244.0.18", "2001:db8:244::18")
B = ("10.244.0.19", "2001:db8:244::19")
C = "10.244.1.20"
CLIENT, WEB, API = "client-6d8f7b9c4-k2m9x", "web-5b7c9d8f6-p4q8r", "api-7c9f8d6b5-t5n8k"


DNS_VIP = "10.96.0.10"
DNS_PODS = {"10.244.0.10": "coredns-5d78c9869d-7xk2p", "10.244.0.11": "coredns-5d78c9869d-q9w4m"}
DNS_SELECTOR = {"k8s-app": "kube-dns"}
STATSD = "statsd-6c8d9f7b5-w7r4t"


def client_pod(dns_config=None):
    """Pod A with the DNS settings the kubelet writes its resolv.conf from (dnsPolicy ClusterFirst)."""
    p = pod(CLIENT, "client", list(A[:1]), NODE, "client-6d8f7b9c4")
    p["spec"]["dnsPolicy"] = "ClusterFirst"
    if dns_config:
        p["spec"]["dnsConfig"] = dns_config
    return p


def dns_pod(ip, ready=True):
    name = DNS_PODS[ip]
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": meta(name, "kube-system", dict(DNS_SELECTOR, **{"pod-template-hash": "5d78c9869d"}),
                          ("ReplicaSet", "coredns-5d78c9869d")),
         "spec": {"nodeName": NODE, "dnsPolicy": "Default", "priorityClassName": "system-cluster-critical",
                  "containers": [{"name": "coredns", "image": "registry.k8s.io/coredns/coredns:v1.11.1",
                                  "args": ["-conf", "/etc/coredns/Corefile"],
                                  "ports": [{"name": "dns", "containerPort": 53, "protocol": "UDP"},
                                            {"name": "dns-tcp", "containerPort": 53, "protocol": "TCP"},
                                            {"name": "metrics", "containerPort": 9153, "protocol": "TCP"}]}]},
         "status": {"phase": "Running", "podIP": ip, "podIPs": [{"ip": ip}],
                    "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}
    return p


def kube_dns_service():
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": meta("kube-dns", "kube-system", dict(DNS_SELECTOR, **{"kubernetes.io/name": "CoreDNS"})),
            "spec": {"type": "ClusterIP", "selector": DNS_SELECTOR, "clusterIP": DNS_VIP, "clusterIPs": [DNS_VIP],
                     "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "sessionAffinity": "None",
                     "internalTrafficPolicy": "Cluster",
                     "ports": [{"name": "dns", "port": 53, "targetPort": 53, "protocol": "UDP"},
                               {"name": "dns-tcp", "port": 53, "targetPort": 53, "protocol": "TCP"},
                               {"name": "metrics", "port": 9153, "targetPort": 9153, "protocol": "TCP"}]},
            "status": {"loadBalancer": {}}}


def kube_dns_slice(ips):
    eps = [{"addresses": [ip], "conditions": {"ready": True, "serving": True, "terminating": False},
            "nodeName": NODE, "targetRef": {"kind": "Pod", "namespace": "kube-system", "name": DNS_PODS[ip]}}
           for ip in ips]
    return {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": meta("kube-dns-v4", "kube-system", {"kubernetes.io/service-name": "kube-dns",
                                                          "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}),
            "addressType": "IPv4", "endpoints": eps,
            "ports": [{"name": "dns", "port": 53, "protocol": "UDP"}, {"name": "dns-tcp", "port": 53, "protocol": "TCP"},
                      {"name": "metrics", "port": 9153, "protocol": "TCP"}]}


def dns_policy(contradicting):
    """Only frontend pods (any namespace) may query the DNS pods; contradicting: the client pods too."""
    admitted = [{"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": "frontend"}}}]
    if contradicting:
        admitted.append({"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": "client"}}})
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": meta("kube-dns-allow-frontend", "kube-system"),
            "spec": {"podSelector": {"matchLabels": DNS_SELECTOR}, "policyTypes": ["Ingress"],
                     "ingress": [{"from": admitted, "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}]}]}}


def dns_objects(scenario, contradicting):
    """The DNS and UDP scenarios (scripts/lab/dns.sh): kube-dns and its pods on this node, pod A with
    dnsPolicy ClusterFirst, and what each scenario dials."""
    dns_ips = ["10.244.0.10"]
    dns_config = None
    extra = []
    if scenario == "dns-insert-race":
        dns_ips = ["10.244.0.10", "10.244.0.11"]
    if scenario == "dns-stale-dnat":
        # Pod 1 was deleted and pod 2 replaced it; the contradicting cluster still has pod 1 as a ready endpoint.
        dns_ips = ["10.244.0.10", "10.244.0.11"] if contradicting else ["10.244.0.11"]
    if scenario == "dns-search-expansion" and contradicting:
        dns_config = {"options": [{"name": "ndots", "value": "1"}]}
    if scenario == "dns-policy-drop":
        extra.append(dns_policy(contradicting))
    objs = [node(NODE, ["198.51.100.2", "2001:db8:5100::2"], ["10.244.0.0/24", "2001:db8:244::/64"]),
            node(NODE_B, ["198.51.100.3", "2001:db8:5100::3"], ["10.244.1.0/24", "2001:db8:244:1::/64"]),
            client_pod(dns_config)]
    objs += [dns_pod(ip) for ip in dns_ips]
    objs += [kube_dns_service(), kube_dns_slice(dns_ips)]
    if scenario == "udp-unreachable":
        p = pod(STATSD, "statsd", list(B[:1]), NODE, "statsd-6c8d9f7b5")
        p["spec"]["containers"][0]["ports"] = [{"name": "metrics", "containerPort": 8125, "protocol": "UDP"}]
        objs.append(p)
        svc = service("statsd", {"app": "statsd"}, [{"name": "metrics", "port": 8125, "targetPort": 8125, "protocol": "UDP"}],
                      ["10.96.81.25"])
        objs.append(svc)
        sl = slice_("statsd", "IPv4", [(B[0], NODE, STATSD)], "metrics", 8125)
        sl["ports"][0]["protocol"] = "UDP"
        objs.append(sl)
    objs += extra
    objs.append(kube_proxy("iptables"))
    return objs


def objects(scenario, contradicting):
    if scenario.startswith("dns-") or scenario.startswith("udp-"):
        return dns_objects(scenario, contradicting)
    v6 = scenario.endswith("-v6")
    base = scenario[:-3] if v6 else scenario
    fam = "IPv6" if v6 else "IPv4"
    ix = 1 if v6 else 0
    objs = [node(NODE, ["198.51.100.2", "2001:db8:5100::2"], ["10.244.0.0/24", "2001:db8:244::/64"]),
            node(NODE_B, ["198.51.100.3", "2001:db8:5100::3"], ["10.244.1.0/24", "2001:db8:244:1::/64"]),
            pod(CLIENT, "client", list(A), NODE, "client-6d8f7b9c4"),
            pod(WEB, "web", list(B), NODE, "web-5b7c9d8f6")]
    mode = "iptables"
    if base in ("hairpin-no-brnf", "healthy-hairpin-brnf", "healthy-direct", "closed-port"):
        objs.append(service("web", {"app": "web"}, [port("http", 8080, 80)], ["10.96.10.80", "2001:db8:96::80"]))
        objs.append(slice_("web", fam, [(B[ix], NODE, WEB)]))
    if base == "hairpin-self":
        objs.append(service("self", {"app": "client"}, [port("http", 8080, 80)], ["10.96.30.30", "2001:db8:96::30"]))
        objs.append(slice_("self", fam, [(A[ix], NODE, CLIENT)]))
    if base == "vip-local-reject":
        mode = "ipvs"
        objs.append(pod("ingress-7f9d8c6b5-z8w2v", "ingress", ["10.244.1.5", "2001:db8:244:1::5"], NODE_B, "ingress-7f9d8c6b5"))
        endpoints = [("2001:db8:244:1::5" if v6 else "10.244.1.5", NODE_B, "ingress-7f9d8c6b5-z8w2v")]
        if contradicting:
            # An ingress replica on this node: ETP Local has a local endpoint here.
            objs.append(pod("ingress-7f9d8c6b5-h5n3c", "ingress", ["10.244.0.30", "2001:db8:244::30"], NODE, "ingress-7f9d8c6b5"))
            endpoints.append(("2001:db8:244::30" if v6 else "10.244.0.30", NODE, "ingress-7f9d8c6b5-h5n3c"))
        objs.append(service("ingress", {"app": "ingress"}, [port("https", 443, 8443, 31443)], ["10.96.40.40", "2001:db8:96::40"],
                            "LoadBalancer", "Local", [{"ip": "203.0.113.10", "ipMode": "VIP"}, {"ip": "2001:db8:113::10", "ipMode": "VIP"}]))
        objs.append(slice_("ingress", fam, endpoints, "https", 8443))
    if base == "lb-probe-vip-source":
        mode = "ipvs"
        objs.append(service("web-lb", {"app": "web"}, [port("https", 443, 80, 30080)], ["10.96.50.50"], "LoadBalancer", "Cluster",
                            [{"ip": "203.0.113.10", "ipMode": "Proxy" if contradicting else "VIP"}]))
        objs.append(slice_("web-lb", "IPv4", [(B[0], NODE, WEB)], "https", 80))
    if base == "service-no-endpoints":
        objs.append(service("empty", {"app": "empty"}, [port("http", 80, 8080)], ["10.96.20.20"]))
        if contradicting:
            objs.append(pod("empty-8c5d6f7b9-r2t6y", "empty", ["10.244.1.7"], NODE_B, "empty-8c5d6f7b9"))
            objs.append(slice_("empty", "IPv4", [("10.244.1.7", NODE_B, "empty-8c5d6f7b9-r2t6y")], "http", 8080))
        else:
            objs.append(slice_("empty", "IPv4", [], "http", 8080))
    if base == "service-drop":
        objs.append(pod("web-local-9d6c8b7f5-m3x7w", "web-local", ["10.244.1.6"], NODE_B, "web-local-9d6c8b7f5"))
        endpoints = [("10.244.1.6", NODE_B, "web-local-9d6c8b7f5-m3x7w")]
        if contradicting:
            objs.append(pod("web-local-9d6c8b7f5-c8v2b", "web-local", ["10.244.0.31"], NODE, "web-local-9d6c8b7f5"))
            endpoints.append(("10.244.0.31", NODE, "web-local-9d6c8b7f5-c8v2b"))
        objs.append(service("web-local", {"app": "web-local"}, [port("https", 443, 80, 30081)], ["10.96.60.60"], "NodePort", "Local"))
        objs.append(slice_("web-local", "IPv4", endpoints, "https", 80))
    if base == "policy-reject":
        objs.append(service("web", {"app": "web"}, [port("http", 8080, 80)], ["10.96.10.80", "2001:db8:96::80"]))
        objs.append(slice_("web", fam, [(B[ix], NODE, WEB)]))
        # Only frontend pods may reach web's pods on port 80; the contradicting cluster admits the client pods too.
        objs.append(policy("web-allow-frontend", "web", contradicting))
    if base.startswith("cross-node-"):
        # Pod C on the second node, behind Service "api"; the policy scenarios' NetworkPolicy admits only
        # frontend pods to it (the contradicting cluster admits the client pods too).
        objs.append(pod(API, "api", [C], NODE_B, "api-7c9f8d6b5"))
        objs.append(service("api", {"app": "api"}, [port("http", 8080, 80)], ["10.96.70.70"]))
        objs.append(slice_("api", "IPv4", [(C, NODE_B, API)]))
        if base in ("cross-node-remote-drop", "cross-node-policy-reject"):
            objs.append(policy("api-allow-frontend", "api", contradicting))
    if base.startswith("pmtu-") or base.startswith("reset-"):
        objs += established_objects(base, contradicting)
    objs.append(kube_proxy(mode))
    return objs


API_NEW, C_NEW = "api-7c9f8d6b5-w3j6d", "10.244.1.21"


def established_objects(scenario, contradicting):
    """The established-connection scenarios (scripts/lab/established.sh): pod C on the second node behind
    Service api. reset-by-gone-endpoint: pod C is being deleted (deletionTimestamp set, its endpoint no
    longer ready nor serving, terminating) and a replacement is ready; the contradicting cluster still has
    pod C running and a ready endpoint."""
    c = pod(API, "api", [C], NODE_B, "api-7c9f8d6b5")
    endpoints = [(C, NODE_B, API)]
    objs = [c, service("api", {"app": "api"}, [port("http", 8080, 80)], ["10.96.70.70"])]
    if scenario == "reset-by-gone-endpoint" and not contradicting:
        c["metadata"]["deletionTimestamp"] = "2026-11-20T09:30:00Z"
        c["metadata"]["deletionGracePeriodSeconds"] = 30
        c["status"]["conditions"] = [{"type": "Ready", "status": "False"}]
        objs.append(pod(API_NEW, "api", [C_NEW], NODE_B, "api-7c9f8d6b5"))
        sl = slice_("api", "IPv4", [(C, NODE_B, API), (C_NEW, NODE_B, API_NEW)])
        sl["endpoints"][0]["conditions"] = {"ready": False, "serving": False, "terminating": True}
        objs.append(sl)
    else:
        objs.append(slice_("api", "IPv4", endpoints))
    return objs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario")
    p.add_argument("out")
    p.add_argument("--contradicting", action="store_true")
    a = p.parse_args()
    doc = {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""},
           "items": objects(a.scenario, a.contradicting)}
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=4, sort_keys=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
