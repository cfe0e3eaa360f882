# shellcheck shell=bash
# The scenarios: each builds the topology it needs, records one short run with every view,
# and checks that the evidence packets are in the recordings (so a run that did not
# reproduce the pattern fails instead of committing a useless capture).
# Sourced by scripts/lab/run and scripts/lab/list; needs lib.sh. $SCENARIO is the one running.
# shellcheck disable=SC2153

# shellcheck disable=SC2034  # read by run and list
SCENARIOS=(
    vip-local-reject
    vip-local-reject-v6
    hairpin-no-brnf
    hairpin-no-brnf-v6
    lb-probe-vip-source
    hairpin-self
    hairpin-self-v6
    healthy-hairpin-brnf
    healthy-hairpin-brnf-v6
    healthy-direct
    closed-port
    service-no-endpoints
    service-drop
    policy-reject
    policy-reject-v6
    delayed-connect
    cross-node-healthy
    cross-node-remote-drop
    cross-node-policy-reject
    cross-node-underlay-drop
    dns-healthy
    dns-same-node-bypass
    dns-policy-drop
    dns-stale-dnat
    dns-servfail
    dns-search-expansion
    dns-insert-race
    udp-unreachable
)

# kube-proxy's iptables chains, reduced to what a scenario needs. The comments are the ones
# kube-proxy writes, so that `iptables-save` in a broken lab reads like a real node.
kube_chains() {
    local ipt=$1
    nsx "$NS_NODE" "$ipt" -N KUBE-SERVICES
    nsx "$NS_NODE" "$ipt" -N KUBE-EXTERNAL-SERVICES
    nsx "$NS_NODE" "$ipt" -A FORWARD -m conntrack --ctstate NEW -j KUBE-SERVICES
    nsx "$NS_NODE" "$ipt" -A INPUT -m conntrack --ctstate NEW -j KUBE-EXTERNAL-SERVICES
    nsx "$NS_NODE" "$ipt" -t nat -N KUBE-SERVICES
    nsx "$NS_NODE" "$ipt" -t nat -A PREROUTING -j KUBE-SERVICES
}

# vip-local-reject: IPVS mode, ETP=Local LoadBalancer Service with no endpoint on this node.
# kube-proxy binds the LB IP to kube-ipvs0, so a pod's SYN to it is delivered locally, and
# IPVS (here: REJECT in INPUT) answers with ICMP port-unreachable. The destination is a
# local address, so icmp_send()/icmp6_send() use it as the error's source: the ICMP comes
# from the VIP itself.
vip_local_reject() {
    local fam=$1 vip ipt reject
    if [[ $fam == 6 ]]; then
        vip=$VIP6 ipt=ip6tables reject=icmp6-port-unreachable
        topo_up 6
        nsx "$NS_NODE" ip addr add "$vip/128" dev kube-ipvs0 nodad
    else
        vip=$VIP4 ipt=iptables reject=icmp-port-unreachable
        topo_up 4
        nsx "$NS_NODE" ip addr add "$vip/32" dev kube-ipvs0
    fi
    nsx "$NS_NODE" "$ipt" -A INPUT -d "$vip" -p tcp --dport 443 \
        -m comment --comment "IPVS virtual server $vip:443 without real servers" \
        -j REJECT --reject-with "$reject"
    record pod
    dial "$NS_A" refused "$vip" 443 --sport 40001 --timeout 2
    dial "$NS_A" refused "$vip" 443 --sport 40002 --timeout 2
    record_stop
    contradict   # the cluster with an ingress replica on this node: ETP Local has a local endpoint
    # Two attempts, each answered by ICMP from the VIP. (IPv6: each SYN is sent twice, see
    # scripts/lab/README.md, "What the kernel did".)
    if [[ $fam == 6 ]]; then
        expect pod-eth0 "ip6[6] == 6 and ip6[40+13] & 2 != 0 and dst host $vip" 2
        expect pod-eth0 "icmp6 and ip6[40] == 1 and ip6[41] == 4 and src host $vip" 2
    else
        expect pod-eth0 "tcp[tcpflags] == tcp-syn and dst host $vip" 2
        expect pod-eth0 "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 3 and src host $vip" 2
    fi
    expect pod-eth0 "tcp and src host $vip" 0 0
}
sc_vip_local_reject() { vip_local_reject 4; }
sc_vip_local_reject_v6() { vip_local_reject 6; }

# nat-bypass-reply: pod A -> ClusterIP:8080, DNAT to pod B:80 on the same bridge, no
# masquerade. With br_netfilter on, the reply frame that the bridge forwards from B to A
# passes conntrack and gets its source rewritten back to the ClusterIP; with it off the
# SYN-ACK reaches A from B:80, A's kernel has no socket for that tuple and answers RST,
# then retransmits its SYN (RFC 9293 3.10.7.3: a segment for no connection gets a reset).
hairpin() {
    local fam=$1 nf=$2 svc b ipt
    if [[ $fam == 6 ]]; then svc=$SVC6 b=$B6 ipt=ip6tables; else svc=$SVC4 b=$B4 ipt=iptables; fi
    topo_up "$fam"
    brnf "$nf"
    serve "$NS_B" 80 "$([[ $fam == 6 ]] && echo --v6)"
    kube_chains "$ipt"
    local to=$b:80
    [[ $fam == 6 ]] && to="[$b]:80"
    nsx "$NS_NODE" "$ipt" -t nat -A KUBE-SERVICES -d "$svc" -p tcp --dport 8080 \
        -m comment --comment "default/web:http cluster IP" -j DNAT --to-destination "$to"
    record pod
    if ((nf)); then
        dial "$NS_A" ok "$svc" 8080 --sport 40001 --timeout 3 --send
    else
        dial "$NS_A" timeout "$svc" 8080 --sport 40001 --timeout 3.5
    fi
    record_stop
    ((nf)) || contradict brnf 1   # the same node with bridge-nf-call-iptables (ip6tables) = 1
    local synack="tcp[tcpflags] & (tcp-syn|tcp-ack) == (tcp-syn|tcp-ack)"
    local rst="tcp[tcpflags] & tcp-rst != 0"
    if [[ $fam == 6 ]]; then
        synack="ip6[6] == 6 and ip6[40+13] & 0x12 == 0x12"
        rst="ip6[6] == 6 and ip6[40+13] & 0x04 != 0"
    fi
    if ((nf)); then
        expect pod-eth0 "src host $svc and src port 8080 and $synack" 1 1
        expect pod-eth0 "tcp and src host $b" 0 0
    else
        expect pod-eth0 "dst host $svc and dst port 8080" 3        # SYN + 2 retransmissions
        expect pod-eth0 "src host $b and src port 80 and $synack" 3
        expect pod-eth0 "dst host $b and dst port 80 and $rst" 3
        expect pod-eth0 "tcp and src host $svc" 0 0
    fi
}
sc_hairpin_no_brnf() { hairpin 4 0; }
sc_hairpin_no_brnf_v6() { hairpin 6 0; }
sc_healthy_hairpin_brnf() { hairpin 4 1; }
sc_healthy_hairpin_brnf_v6() { hairpin 6 1; }

# hairpin-self: pod A dials a Service whose only backend is pod A itself. br_netfilter is on
# (the reply path is fine), but the bridge port has no hairpin mode: DNAT turns A's SYN around
# to A, and a bridge never sends a frame back out of the port it came in on unless that port is
# in hairpin mode (br_forward.c, should_deliver()). A gets no answer and retries. Pod B dials
# the same Service first and is answered by A: the Service works for everyone but its backend.
hairpin_self() {
    local fam=$1 svc a ipt
    if [[ $fam == 6 ]]; then svc=$SVC_SELF6 a=$A6 ipt=ip6tables; else svc=$SVC_SELF4 a=$A4 ipt=iptables; fi
    topo_up "$fam"
    brnf 1
    serve "$NS_A" 80 "$([[ $fam == 6 ]] && echo --v6)"
    kube_chains "$ipt"
    local to=$a:80
    [[ $fam == 6 ]] && to="[$a]:80"
    nsx "$NS_NODE" "$ipt" -t nat -A KUBE-SERVICES -d "$svc" -p tcp --dport 8080 \
        -m comment --comment "default/self:http cluster IP" -j DNAT --to-destination "$to"
    [[ $(nsx "$NS_NODE" cat /sys/class/net/veth-a/brport/hairpin_mode) == 0 ]] ||
        die "$SCENARIO: veth-a is in hairpin mode; the scenario needs it off"
    record pod
    dial "$NS_B" ok "$svc" 8080 --sport 40001 --timeout 2 --send
    dial_bg "$NS_A" timeout "$svc" 8080 --sport 40002 --timeout 2.5
    sleep 0.3
    dial_bg "$NS_A" timeout "$svc" 8080 --sport 40003 --timeout 2.5
    dial_wait
    record_stop
    contradict hairpin_on veth-a   # the same node with hairpin mode on the pod's bridge port
    local synack="tcp[tcpflags] & (tcp-syn|tcp-ack) == (tcp-syn|tcp-ack)"
    if [[ $fam == 6 ]]; then
        synack="ip6[6] == 6 and ip6[40+13] & 0x12 == 0x12"
        expect pod-eth0 "ip6[6] == 6 and ip6[40+13] == 0x02 and src host $a and dst host $svc" 4
    else
        expect pod-eth0 "tcp[tcpflags] == tcp-syn and src host $a and dst host $svc" 4   # 2 attempts, retransmitted
    fi
    expect pod-eth0 "dst host $a and (dst port 40002 or dst port 40003) and $synack" 0 0
    expect any "src host $a and src port 80 and $synack" 1                 # B was answered
}
hairpin_on() { nsx "$NS_NODE" bash -c "echo 1 > /sys/class/net/$1/brport/hairpin_mode"; }
sc_hairpin_self() { hairpin_self 4; }
sc_hairpin_self_v6() { hairpin_self 6; }

# lb-probe-dropped: the cloud LB sends health probes to the NodePort from its own VIP.
# kube-proxy (IPVS) has the same VIP on kube-ipvs0, so for the node the probe's source is
# one of its own addresses: fib_validate_source() calls it a martian and drops it in
# ip_route_input, before any socket or NAT sees it. An ordinary client's SYN to the same
# NodePort is DNATed to pod B and answered.
sc_lb_probe_vip_source() {
    topo_up 4
    nsx "$NS_NODE" ip addr add "$VIP4/32" dev kube-ipvs0
    nsx "$NS_LB" ip addr add "$VIP4/32" dev lo
    # The LB's ARP requests carry its interface address, not the VIP it probes from (the node
    # would not answer an ARP request whose sender is one of its own addresses).
    nset "$NS_LB" net.ipv4.conf.eth0.arp_announce 2
    serve "$NS_B" 80
    # The kernel's own verdict: no route for a packet from the VIP arriving on eth0.
    if nsx "$NS_NODE" ip route get "$NODE4" from "$VIP4" iif eth0 >/dev/null 2>&1; then
        die "$SCENARIO: the node would accept packets from $VIP4 on eth0; no martian drop"
    fi
    kube_chains iptables
    nsx "$NS_NODE" iptables -t nat -N KUBE-NODEPORTS
    nsx "$NS_NODE" iptables -t nat -A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
    nsx "$NS_NODE" iptables -t nat -A KUBE-NODEPORTS -p tcp --dport "$NODEPORT" \
        -m comment --comment "default/web-lb:https node port" -j DNAT --to-destination "$B4:80"
    record ext
    dial "$NS_LB" ok "$NODE4" "$NODEPORT" --bind "$EXT4" --sport 40001 --timeout 2 --send
    local p
    for p in 41001 41002 41003; do
        dial_bg "$NS_LB" timeout "$NODE4" "$NODEPORT" --bind "$VIP4" --sport "$p" --timeout 1.5
        sleep 0.3
    done
    dial_wait
    record_stop
    # The cluster with ipMode: Proxy, and the node without the VIP on kube-ipvs0 (what kube-proxy does then).
    contradict nsx "$NS_NODE" ip addr del "$VIP4/32" dev kube-ipvs0
    expect node-eth0 "src host $VIP4 and dst port $NODEPORT and tcp[tcpflags] == tcp-syn" 6   # 3 probes, each retransmitted
    expect node-eth0 "dst host $VIP4" 0 0
    expect node-eth0 "src host $NODE4 and dst host $EXT4 and tcp[tcpflags] == tcp-syn|tcp-ack" 1 1
    expect cni0 "src host $VIP4" 0 0
}

# healthy-direct: pod A -> pod B:80 over the bridge, once per family.
sc_healthy_direct() {
    topo_up 46
    serve "$NS_B" 80 --v6
    record pod
    dial "$NS_A" ok "$B4" 80 --sport 40001 --send
    dial "$NS_A" ok "$B6" 80 --sport 40002 --send
    record_stop
    expect pod-eth0 "src host $B4 and tcp[tcpflags] == tcp-syn|tcp-ack" 1 1
    expect pod-eth0 "src host $B6 and ip6[6] == 6 and ip6[40+13] == 0x12" 1 1
}

# connection-refused: nothing listens on pod B:8081, B's kernel answers RST.
sc_closed_port() {
    topo_up 4
    serve "$NS_B" 80
    record pod
    dial "$NS_A" refused "$B4" 8081 --sport 40001
    record_stop
    expect pod-eth0 "src host $B4 and src port 8081 and tcp[tcpflags] & tcp-rst != 0" 1 1
}

# icmp-unreachable: kube-proxy iptables mode, Service without endpoints: a REJECT in
# filter/KUBE-SERVICES on the forward path. The destination is not local, so icmp_send()
# picks the source by route lookup towards the pod: the gateway address, not the ClusterIP.
sc_service_no_endpoints() {
    topo_up 4
    kube_chains iptables
    nsx "$NS_NODE" iptables -A KUBE-SERVICES -d "$SVC_NOEP4" -p tcp --dport 80 \
        -m comment --comment "default/empty:http has no endpoints" \
        -j REJECT --reject-with icmp-port-unreachable
    record pod
    dial "$NS_A" refused "$SVC_NOEP4" 80 --sport 40001
    record_stop
    contradict   # the cluster with a ready endpoint
    expect pod-eth0 "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 3 and src host $GW4" 1 1
}

# no-response: kube-proxy iptables mode, ETP=Local NodePort with no endpoint on this node:
# filter/KUBE-EXTERNAL-SERVICES DROPs it. The outside client retransmits and gives up.
sc_service_drop() {
    topo_up 4
    kube_chains iptables
    nsx "$NS_NODE" iptables -A KUBE-EXTERNAL-SERVICES -m addrtype --dst-type LOCAL \
        -p tcp --dport "$NODEPORT_LOCAL" \
        -m comment --comment "default/web-local:https has no local endpoints" -j DROP
    record ext
    dial "$NS_LB" timeout "$NODE4" "$NODEPORT_LOCAL" --bind "$EXT4" --sport 40001 --timeout 3.5
    record_stop
    contradict   # the cluster with an endpoint on this node
    expect node-eth0 "dst port $NODEPORT_LOCAL and tcp[tcpflags] == tcp-syn" 3
    expect node-eth0 "src port $NODEPORT_LOCAL" 0 0
}

# policy-reject: a NetworkPolicy enforced by a CNI that rejects rather than drops: pod A may not reach
# pod B:80. The rule sits in FORWARD, where br_netfilter (on) hands it the bridged traffic between the
# two pods; REJECT --reject-with icmp-admin-prohibited (icmp6-adm-prohibited) answers for B with ICMP
# type 3 code 13 (ICMPv6 type 1 code 1), from the node's address on the bridge (icmp_send() picks the
# source by route lookup towards A).
policy_reject() {
    local fam=$1 b ipt reject a
    if [[ $fam == 6 ]]; then
        b=$B6 a=$A6 ipt=ip6tables reject=icmp6-adm-prohibited
    else
        b=$B4 a=$A4 ipt=iptables reject=icmp-admin-prohibited
    fi
    topo_up "$fam"
    brnf 1
    serve "$NS_B" 80 "$([[ $fam == 6 ]] && echo --v6)"
    nsx "$NS_NODE" "$ipt" -N KUBE-NWPLCY-WEB
    nsx "$NS_NODE" "$ipt" -A FORWARD -d "$b" -j KUBE-NWPLCY-WEB
    nsx "$NS_NODE" "$ipt" -A KUBE-NWPLCY-WEB -s "$a" -p tcp --dport 80 \
        -m comment --comment "default/web-allow-frontend: client pods are not admitted" -j REJECT --reject-with "$reject"
    record pod
    # Linux reports an administratively prohibited ICMP error to connect() as EHOSTUNREACH (and as
    # EACCES for ICMPv6 code 1 on newer kernels): "unreachable" or an error, not "refused".
    dial "$NS_A" "$([[ $fam == 6 ]] && echo error:EACCES || echo unreachable)" "$b" 80 --sport 40001 --timeout 2
    record_stop
    contradict   # the cluster whose policy admits the client pods
    if [[ $fam == 6 ]]; then
        expect pod-eth0 "icmp6 and ip6[40] == 1 and ip6[41] == 1" 1
    else
        expect pod-eth0 "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 13" 1
    fi
    expect pod-eth0 "tcp and src host $b" 0 0
}
sc_policy_reject() { policy_reject 4; }
sc_policy_reject_v6() { policy_reject 6; }

# delayed-connect: the first SYN of a connection is lost and only its retransmission, a second later,
# is answered. What loses it on real nodes (a conntrack insert race, IPVS conn_reuse_mode, a full
# table) cannot be made here on demand; the stand-in is a rule that drops the first SYN pod A sends to
# pod B:80 and lets every later one through (xt_recent, keyed by source). The second connection is
# answered at once: 1 of 2 attempts delayed.
sc_delayed_connect() {
    topo_up 4
    brnf 1
    serve "$NS_B" 80
    nsx "$NS_NODE" iptables -A FORWARD -d "$B4" -p tcp --syn --dport 80 -m recent --name pdlab-first --rcheck --seconds 60 -j ACCEPT
    nsx "$NS_NODE" iptables -A FORWARD -d "$B4" -p tcp --syn --dport 80 -m recent --name pdlab-first --set \
        -m comment --comment "stand-in for a lost first SYN" -j DROP
    record pod
    dial "$NS_A" ok "$B4" 80 --sport 40001 --timeout 3 --send
    dial "$NS_A" ok "$B4" 80 --sport 40002 --timeout 3 --send
    record_stop
    expect pod-eth0 "tcp[tcpflags] == tcp-syn and dst port 80 and src port 40001" 2 2
    expect pod-eth0 "tcp[tcpflags] == tcp-syn and dst port 80 and src port 40002" 1 1
    expect pod-eth0 "src host $B4 and tcp[tcpflags] == tcp-syn|tcp-ack" 2 2
}

# cross-node: pod A on node A dials pod C:80 on node B; the SYN crosses the nodes inside a Flannel-style
# VXLAN (topo2_up), so node A's eth0 only shows UDP 8472 with the SYN inside. $1 is what is in its way:
#   none           nothing: answered through the tunnel both ways
#   remote-drop    a NetworkPolicy enforced on node B that drops (filter FORWARD towards pod C)
#   remote-reject  the same rule rejecting with icmp-admin-prohibited: node B answers from its VTEP
#                  address 10.244.1.0 (icmp_send() picks the source by route lookup towards A, via
#                  flannel.1), and the ICMP travels back inside the tunnel
#   underlay-drop  the network between the nodes drops the overlay (a cloud firewall without UDP 8472):
#                  br_netfilter on the bridge between them, a DROP for UDP 8472 in its FORWARD chain
cross_node() {
    local block=$1
    topo2_up
    serve "$NS_C" 80
    case $block in
    remote-drop | remote-reject)
        local target=(-j DROP)
        [[ $block == remote-reject ]] && target=(-j REJECT --reject-with icmp-admin-prohibited)
        nsx "$NS_NODE_B" iptables -N KUBE-NWPLCY-API
        nsx "$NS_NODE_B" iptables -A FORWARD -d "$C4" -j KUBE-NWPLCY-API
        nsx "$NS_NODE_B" iptables -A KUBE-NWPLCY-API -s "$A4" -p tcp --dport 80 \
            -m comment --comment "default/api-allow-frontend: client pods are not admitted" "${target[@]}"
        ;;
    underlay-drop)
        nset "$NS_NET" net.bridge.bridge-nf-call-iptables 1
        nsx "$NS_NET" iptables -A FORWARD -p udp --dport "$VXLAN_PORT" \
            -m comment --comment "the network between the nodes does not carry the overlay" -j DROP
        ;;
    esac
    record2
    case $block in
    none) dial "$NS_A" ok "$C4" 80 --sport 40001 --timeout 3 --send ;;
    remote-reject) dial "$NS_A" unreachable "$C4" 80 --sport 40001 --timeout 2 ;;
    *) dial "$NS_A" timeout "$C4" 80 --sport 40001 --timeout 3.5 ;;
    esac
    record_stop
    [[ $block == remote-* ]] && contradict   # the cluster whose policy admits the client pods
    local vxlan="udp dst port $VXLAN_PORT"
    expect pod-eth0 "tcp[tcpflags] == tcp-syn and dst host $C4" 1
    expect node-eth0 "tcp" 0 0                       # on eth0 everything is inside the tunnel
    expect node-eth0 "src host $NODE4 and dst host $NODE_B4 and $vxlan" 1
    case $block in
    none)
        expect pod-eth0 "src host $C4 and tcp[tcpflags] == tcp-syn|tcp-ack" 1 1
        expect node-b-eth0 "src host $NODE_B4 and $vxlan" 1
        ;;
    remote-drop)
        expect node-b-eth0 "dst host $NODE_B4 and $vxlan" 3        # SYN + retransmissions reached node B
        expect node-b-eth0 "src host $NODE_B4" 0 0                 # nothing came back
        ;;
    remote-reject)
        expect pod-eth0 "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 13 and src host $FLANNEL4_B" 1
        expect node-b-eth0 "src host $NODE_B4 and $vxlan" 1        # the ICMP went back inside the tunnel
        expect pod-eth0 "tcp and src host $C4" 0 0
        ;;
    underlay-drop)
        expect node-b-eth0 "udp" 0 0                               # nothing reached node B
        ;;
    esac
}
sc_cross_node_healthy() { cross_node none; }
sc_cross_node_remote_drop() { cross_node remote-drop; }
sc_cross_node_policy_reject() { cross_node remote-reject; }
sc_cross_node_underlay_drop() { cross_node underlay-drop; }

# The DNS and UDP Service scenarios (dns-*, udp-unreachable).
# shellcheck source=dns.sh
source "$(dirname "${BASH_SOURCE[0]}")/dns.sh"
# The established-connection scenarios (pmtu-*, reset-*).
# shellcheck source=established.sh
source "$(dirname "${BASH_SOURCE[0]}")/established.sh"
