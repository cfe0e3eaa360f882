# shellcheck shell=bash
# Shared code for scripts/lab: the namespaces, the node topology and the recorders.
# Sourced by scripts/lab/run; every name the lab creates starts with $LAB_PREFIX so that a
# later run can find and remove what an aborted run left behind.
# shellcheck disable=SC2034  # the constants are used by scenarios.sh

LAB_PREFIX=pdlab-
NS_NODE=${LAB_PREFIX}node   # the Kubernetes node: cni0, kube-ipvs0, eth0, iptables
NS_A=${LAB_PREFIX}a         # pod A (the client in pod scenarios)
NS_B=${LAB_PREFIX}b         # pod B (the endpoint, a server on :80)
NS_LB=${LAB_PREFIX}lb       # "outside": the cloud load balancer and an ordinary client
NS_NODE_B=${LAB_PREFIX}nodeb  # cross-node scenarios: the second node (cni0, veth-c, flannel.1, eth0)
NS_C=${LAB_PREFIX}c         # cross-node scenarios: pod C on the second node (a server on :80)
NS_NET=${LAB_PREFIX}net     # cross-node scenarios: the network between the nodes (bridge br0)

# Addresses. RFC 5737 for anything public, RFC 3849 for every IPv6 address.
GW4=10.244.0.1;      GW6=2001:db8:244::1     # cni0, the pods' gateway
A4=10.244.0.18;      A6=2001:db8:244::18     # pod A
B4=10.244.0.19;      B6=2001:db8:244::19     # pod B
NODE4=198.51.100.2;  NODE6=2001:db8:5100::2  # node eth0
LBR4=198.51.100.1;   LBR6=2001:db8:5100::1   # outside router / LB, node's default gateway
EXT4=192.0.2.50                              # an ordinary client on the Internet (lives in $NS_LB)
VIP4=203.0.113.10;   VIP6=2001:db8:113::10   # LoadBalancer ingress IP
SVC4=10.96.10.80;    SVC6=2001:db8:96::80    # ClusterIP of Service "web" (port 8080 -> pod B:80)
SVC_NOEP4=10.96.20.20                        # ClusterIP of a Service without endpoints
SVC_SELF4=10.96.30.30; SVC_SELF6=2001:db8:96::30  # ClusterIP of Service "self" (port 8080 -> pod A:80)
# Cross-node scenarios: the second node, its pod and the Flannel-style VXLAN between the nodes.
GW4_B=10.244.1.1                             # node B's cni0
C4=10.244.1.20                               # pod C on node B
NODE_B4=198.51.100.3                         # node B eth0
FLANNEL4=10.244.0.0; FLANNEL4_B=10.244.1.0   # flannel.1 on node A and node B (the VTEP addresses)
VXLAN_PORT=8472                              # Linux's and Flannel's VXLAN port
NODEPORT=30080                               # NodePort of the LoadBalancer Service
NODEPORT_LOCAL=30081                         # NodePort of an ETP=Local Service without local endpoints

# DNS scenarios (dns.sh): the cluster DNS Service, its pods on this node's cni0, the upstream resolver.
DNS_VIP=10.96.0.10                            # ClusterIP of Service kube-system/kube-dns (53/UDP, 53/TCP)
DNS1=10.244.0.10;  DNS2=10.244.0.11           # the DNS pods (coredns-...), on this node's cni0
NS_DNS1=${LAB_PREFIX}dns1; NS_DNS2=${LAB_PREFIX}dns2
MAC_VETH_DNS1=02:00:00:00:01:1d; MAC_DNS1_ETH0=02:00:00:00:1d:01
MAC_VETH_DNS2=02:00:00:00:01:2d; MAC_DNS2_ETH0=02:00:00:00:2d:01
UPSTREAM4=$LBR4                               # the upstream resolver the DNS pods forward to (in $NS_LB)
STATSD_SVC4=10.96.81.25; STATSD_PORT=8125     # ClusterIP of a UDP Service whose pod (B) does not listen
UPSTREAM_NAME=api.example.com; UPSTREAM_ADDR=192.0.2.80   # a name only the upstream knows
# The pod's resolv.conf as the kubelet writes it for dnsPolicy ClusterFirst in namespace default.
POD_RESOLV_CONF="search default.svc.cluster.local svc.cluster.local cluster.local
nameserver $DNS_VIP
options ndots:5
"

# Fixed MACs (locally administered, 02:00:00:00:<namespace>:<interface>) so recordings repeat.
MAC_CNI0=02:00:00:00:01:01
MAC_IPVS0=02:00:00:00:01:02
MAC_NODE_ETH0=02:00:00:00:01:03
MAC_VETH_A=02:00:00:00:01:0a
MAC_VETH_B=02:00:00:00:01:0b
MAC_A_ETH0=02:00:00:00:0a:01
MAC_B_ETH0=02:00:00:00:0b:01
MAC_LB_ETH0=02:00:00:00:0c:01
MAC_FLANNEL=02:00:00:00:01:04
MAC_B_CNI0=02:00:00:00:02:01
MAC_B_ETH0_NODE=02:00:00:00:02:03
MAC_B_FLANNEL=02:00:00:00:02:04
MAC_VETH_C=02:00:00:00:02:0c
MAC_C_ETH0=02:00:00:00:0d:01
MAC_NET_BR0=02:00:00:00:0e:01
MAC_NET_A=02:00:00:00:0e:0a
MAC_NET_B=02:00:00:00:0e:0b

LAB_DIR=${LAB_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
TCP_PY=$LAB_DIR/tcp.py
SNAPSHOT_PY=$LAB_DIR/snapshot.py
DNS_PY=$LAB_DIR/dns.py
# The pcapdiag to run (node-facts): the launcher, or what a test gives (PDLAB_PCAPDIAG, an executable).
PCAPDIAG=${PDLAB_PCAPDIAG:-$LAB_DIR/../pcapdiag}
NODE_NAME=pdlab-node     # the node's name in the cluster snapshots and node facts
NODE_B_NAME=pdlab-node-b # the second node's (cross-node scenarios)

BG_PIDS=()    # servers and clients started in the background
CAP_PIDS=()   # recorders, stopped with SIGINT
CAP_FILES=()  # files the current scenario records

die() { echo "lab: $*" >&2; exit 1; }
say() { [[ -n ${LAB_QUIET:-} ]] || echo "lab: $*" >&2; }

nsx() { local ns=$1; shift; ip netns exec "$ns" "$@" 9>&-; }

# sysctl without procps: nset NS net.ipv4.ip_forward 1
nset() {
    local ns=$1 key=$2 val=$3
    # shellcheck disable=SC2016  # expanded by the inner bash
    ip netns exec "$ns" bash -c 'printf "%s\n" "$2" > "/proc/sys/${1//.//}"' _ "$key" "$val"
}

# Kill, by id, every process still inside a lab namespace (ours, from this or an aborted
# run), then delete the namespaces; their veths and bridges go with them.
lab_cleanup() {
    local pid ns
    for pid in "${CAP_PIDS[@]}" "${BG_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for ns in $(ip netns list 2>/dev/null | awk -v p="$LAB_PREFIX" 'index($1, p) == 1 {print $1}'); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill "$pid" 2>/dev/null || true
        done
    done
    for pid in "${CAP_PIDS[@]}" "${BG_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    CAP_PIDS=(); BG_PIDS=()
    for ns in $(ip netns list 2>/dev/null | awk -v p="$LAB_PREFIX" 'index($1, p) == 1 {print $1}'); do
        local i
        for i in 1 2 3 4 5 6 7 8 9 10; do
            [[ -z $(ip netns pids "$ns" 2>/dev/null) ]] && break
            sleep 0.1
        done
        ip netns del "$ns" 2>/dev/null || true
    done
    # The resolv.conf files `ip netns exec` bind-mounts for a pod (the DNS scenarios').
    rm -rf /etc/netns/"$LAB_PREFIX"*
}

# Quiet IPv6 (no DAD, no router solicitations) or no IPv6 at all, set before any interface
# exists in the namespace so every interface inherits it.
ns_init() {
    local ns=$1 fam=$2 k
    ip netns add "$ns"
    nsx "$ns" ip link set lo up
    # Unsolicited IGMP/MLD reports are repeated at random within these intervals (default 1 s)
    # after an interface comes up; 1 ms gets them over with before recording starts.
    for k in all default; do
        nset "$ns" net.ipv4.conf.$k.igmpv2_unsolicited_report_interval 1
        nset "$ns" net.ipv4.conf.$k.igmpv3_unsolicited_report_interval 1
    done
    if [[ $fam == *6* ]]; then
        for k in all default; do
            nset "$ns" net.ipv6.conf.$k.accept_dad 0
            nset "$ns" net.ipv6.conf.$k.dad_transmits 0
            nset "$ns" net.ipv6.conf.$k.accept_ra 0
            nset "$ns" net.ipv6.conf.$k.router_solicitations 0
            nset "$ns" net.ipv6.conf.$k.mldv1_unsolicited_report_interval 1
            nset "$ns" net.ipv6.conf.$k.mldv2_unsolicited_report_interval 1
        done
    else
        for k in all default; do
            nset "$ns" net.ipv6.conf.$k.disable_ipv6 1
        done
    fi
}

# topo_up FAMILIES (4, 6 or 46): the node, two pods on cni0 and the outside namespace.
#
#   pdlab-a  eth0 ─ veth-a ┐
#                          ├ cni0 (bridge, gateway)  [kube-ipvs0: down bridge holding VIPs]
#   pdlab-b  eth0 ─ veth-b ┘        pdlab-node  eth0 ─── eth0  pdlab-lb (LB, Internet client)
topo_up() {
    local fam=$1 ns
    for ns in "$NS_NODE" "$NS_A" "$NS_B" "$NS_LB"; do
        ns_init "$ns" "$fam"
    done

    nset "$NS_NODE" net.ipv4.ip_forward 1
    # A router whose in and out interface are the same sends ICMP redirects; real nodes and
    # CNIs usually do too, but a redirect quoting the SYN is noise for these recordings.
    nset "$NS_NODE" net.ipv4.conf.all.send_redirects 0
    nset "$NS_NODE" net.ipv4.conf.default.send_redirects 0
    [[ $fam == *6* ]] && nset "$NS_NODE" net.ipv6.conf.all.forwarding 1
    # br_netfilter's switches are per network namespace; scenarios turn them on when needed.
    brnf 0

    nsx "$NS_NODE" ip link add cni0 address "$MAC_CNI0" type bridge
    nsx "$NS_NODE" ip link add kube-ipvs0 address "$MAC_IPVS0" type bridge   # stays down
    nsx "$NS_NODE" ip link add veth-a address "$MAC_VETH_A" type veth \
        peer name eth0 netns "$NS_A" address "$MAC_A_ETH0"
    nsx "$NS_NODE" ip link add veth-b address "$MAC_VETH_B" type veth \
        peer name eth0 netns "$NS_B" address "$MAC_B_ETH0"
    nsx "$NS_NODE" ip link add eth0 address "$MAC_NODE_ETH0" type veth \
        peer name eth0 netns "$NS_LB" address "$MAC_LB_ETH0"
    nsx "$NS_NODE" ip link set veth-a master cni0
    nsx "$NS_NODE" ip link set veth-b master cni0

    nsx "$NS_NODE" ip addr add "$GW4/24" dev cni0
    nsx "$NS_NODE" ip addr add "$NODE4/24" dev eth0
    nsx "$NS_A" ip addr add "$A4/24" dev eth0
    nsx "$NS_B" ip addr add "$B4/24" dev eth0
    nsx "$NS_LB" ip addr add "$LBR4/24" dev eth0
    nsx "$NS_LB" ip addr add "$EXT4/32" dev lo
    if [[ $fam == *6* ]]; then
        nsx "$NS_NODE" ip addr add "$GW6/64" dev cni0 nodad
        nsx "$NS_NODE" ip addr add "$NODE6/64" dev eth0 nodad
        nsx "$NS_A" ip addr add "$A6/64" dev eth0 nodad
        nsx "$NS_B" ip addr add "$B6/64" dev eth0 nodad
        nsx "$NS_LB" ip addr add "$LBR6/64" dev eth0 nodad
    fi
    for ns in "$NS_A" "$NS_B"; do
        nsx "$ns" ip link set eth0 up
    done
    nsx "$NS_LB" ip link set eth0 up
    nsx "$NS_NODE" ip link set veth-a up
    nsx "$NS_NODE" ip link set veth-b up
    nsx "$NS_NODE" ip link set cni0 up
    nsx "$NS_NODE" ip link set eth0 up

    nsx "$NS_A" ip route add default via "$GW4"
    nsx "$NS_B" ip route add default via "$GW4"
    nsx "$NS_NODE" ip route add default via "$LBR4"
    if [[ $fam == *6* ]]; then
        nsx "$NS_A" ip -6 route add default via "$GW6"
        nsx "$NS_B" ip -6 route add default via "$GW6"
        nsx "$NS_NODE" ip -6 route add default via "$LBR6"
    fi
    topo_settle "$fam"
}

# Wait until every interface is operationally up and, with IPv6, has its link-local address.
# The bridge's carrier change reaches addrconf through linkwatch, which batches events up to a
# second; its link-local address, and the MLD reports for it, come that much later. Without
# this wait they land in the middle of the recordings.
# topo_settle FAMILIES [NS:DEV...]: the given interfaces, by default the one-node topology's.
topo_settle() {
    local fam=$1 i pair ns dev pending; shift
    local pairs=("$@")
    ((${#pairs[@]})) || pairs=("$NS_NODE:cni0" "$NS_NODE:veth-a" "$NS_NODE:veth-b" "$NS_NODE:eth0"
        "$NS_A:eth0" "$NS_B:eth0" "$NS_LB:eth0")
    for ((i = 0; i < 60; i++)); do
        pending=0
        for pair in "${pairs[@]}"; do
            ns=${pair%%:*} dev=${pair#*:}
            # A VXLAN device has no carrier of its own: its state stays UNKNOWN once it is up.
            ip -n "$ns" -o link show dev "$dev" | grep -Eq 'state UP|LOWER_UP>.*state UNKNOWN' || pending=1
            if [[ $fam == *6* && -z $(ip -n "$ns" -6 -o addr show dev "$dev" scope link) ]]; then
                pending=1
            fi
        done
        ((pending)) || break
        sleep 0.05
    done
    sleep 0.1   # the IGMP/MLD reports that follow (1 ms intervals, see ns_init)
}

# pod_on_bridge NODE-NS CNI0-MAC GATEWAY VETH VETH-MAC POD-NS POD-MAC POD-IP: the node's cni0 bridge (a /24,
# the gateway its address) and one pod on it through a veth pair.
pod_on_bridge() {
    local node=$1 cni0_mac=$2 gw=$3 veth=$4 veth_mac=$5 pod=$6 pod_mac=$7 pod_ip=$8
    nsx "$node" ip link add cni0 address "$cni0_mac" type bridge
    nsx "$node" ip link add "$veth" address "$veth_mac" type veth peer name eth0 netns "$pod" address "$pod_mac"
    nsx "$node" ip link set "$veth" master cni0
    nsx "$node" ip addr add "$gw/24" dev cni0
    nsx "$pod" ip addr add "$pod_ip/24" dev eth0
}

# topo2_up: two nodes joined by a Flannel-style VXLAN (IPv4 only), for the cross-node scenarios.
#
#   pdlab-a  eth0 ─ veth-a ─ cni0 10.244.0.1   pdlab-node    flannel.1 10.244.0.0 (VXLAN 1, :8472)
#                                                             eth0 198.51.100.2 ─┐
#                                                   pdlab-net  br0 (the network) ├─ na / nb
#                                                             eth0 198.51.100.3 ─┘
#   pdlab-c  eth0 ─ veth-c ─ cni0 10.244.1.1   pdlab-nodeb   flannel.1 10.244.1.0 (VXLAN 1, :8472)
#
# As Flannel's vxlan backend sets it up: a route to the other node's pod CIDR via its VTEP address on
# flannel.1 (onlink), a permanent neighbour entry for that address with the other VTEP's MAC, and a
# forwarding entry sending that MAC to the other node's eth0 address. No learning, no multicast, and
# permanent neighbours on eth0 too, so no ARP falls into the recordings.
topo2_up() {
    local ns
    for ns in "$NS_NODE" "$NS_NODE_B" "$NS_A" "$NS_C" "$NS_NET"; do
        ns_init "$ns" 4
    done
    for ns in "$NS_NODE" "$NS_NODE_B"; do
        nset "$ns" net.ipv4.ip_forward 1
        nset "$ns" net.ipv4.conf.all.send_redirects 0
        nset "$ns" net.ipv4.conf.default.send_redirects 0
        nset "$ns" net.bridge.bridge-nf-call-iptables 1
    done
    # The network between the nodes: a bridge; its own iptables only sees bridged frames when a
    # scenario turns br_netfilter on there.
    nset "$NS_NET" net.bridge.bridge-nf-call-iptables 0
    nsx "$NS_NET" ip link add br0 address "$MAC_NET_BR0" type bridge
    nsx "$NS_NODE" ip link add eth0 address "$MAC_NODE_ETH0" type veth peer name na netns "$NS_NET" address "$MAC_NET_A"
    nsx "$NS_NODE_B" ip link add eth0 address "$MAC_B_ETH0_NODE" type veth peer name nb netns "$NS_NET" address "$MAC_NET_B"
    nsx "$NS_NET" ip link set na master br0
    nsx "$NS_NET" ip link set nb master br0

    nsx "$NS_NODE" ip addr add "$NODE4/24" dev eth0
    nsx "$NS_NODE_B" ip addr add "$NODE_B4/24" dev eth0
    pod_on_bridge "$NS_NODE" "$MAC_CNI0" "$GW4" veth-a "$MAC_VETH_A" "$NS_A" "$MAC_A_ETH0" "$A4"
    pod_on_bridge "$NS_NODE_B" "$MAC_B_CNI0" "$GW4_B" veth-c "$MAC_VETH_C" "$NS_C" "$MAC_C_ETH0" "$C4"

    nsx "$NS_NODE" ip link add flannel.1 address "$MAC_FLANNEL" type vxlan id 1 local "$NODE4" dev eth0 \
        dstport "$VXLAN_PORT" nolearning
    nsx "$NS_NODE_B" ip link add flannel.1 address "$MAC_B_FLANNEL" type vxlan id 1 local "$NODE_B4" dev eth0 \
        dstport "$VXLAN_PORT" nolearning
    nsx "$NS_NODE" ip addr add "$FLANNEL4/32" dev flannel.1
    nsx "$NS_NODE_B" ip addr add "$FLANNEL4_B/32" dev flannel.1

    nsx "$NS_NET" ip link set na up
    nsx "$NS_NET" ip link set nb up
    nsx "$NS_NET" ip link set br0 up
    local dev
    for dev in eth0 cni0 veth-a flannel.1; do nsx "$NS_NODE" ip link set "$dev" up; done
    for dev in eth0 cni0 veth-c flannel.1; do nsx "$NS_NODE_B" ip link set "$dev" up; done
    nsx "$NS_A" ip link set eth0 up
    nsx "$NS_C" ip link set eth0 up

    nsx "$NS_A" ip route add default via "$GW4"
    nsx "$NS_C" ip route add default via "$GW4_B"
    nsx "$NS_NODE" ip neigh add "$NODE_B4" lladdr "$MAC_B_ETH0_NODE" dev eth0 nud permanent
    nsx "$NS_NODE_B" ip neigh add "$NODE4" lladdr "$MAC_NODE_ETH0" dev eth0 nud permanent
    nsx "$NS_NODE" ip route add 10.244.1.0/24 via "$FLANNEL4_B" dev flannel.1 onlink
    nsx "$NS_NODE" ip neigh add "$FLANNEL4_B" lladdr "$MAC_B_FLANNEL" dev flannel.1 nud permanent
    nsx "$NS_NODE" bridge fdb append "$MAC_B_FLANNEL" dev flannel.1 dst "$NODE_B4"
    nsx "$NS_NODE_B" ip route add 10.244.0.0/24 via "$FLANNEL4" dev flannel.1 onlink
    nsx "$NS_NODE_B" ip neigh add "$FLANNEL4" lladdr "$MAC_FLANNEL" dev flannel.1 nud permanent
    nsx "$NS_NODE_B" bridge fdb append "$MAC_FLANNEL" dev flannel.1 dst "$NODE4"
    topo_settle 4 "$NS_NODE:cni0" "$NS_NODE:veth-a" "$NS_NODE:eth0" "$NS_NODE:flannel.1" \
        "$NS_NODE_B:cni0" "$NS_NODE_B:veth-c" "$NS_NODE_B:eth0" "$NS_NODE_B:flannel.1" \
        "$NS_A:eth0" "$NS_C:eth0" "$NS_NET:br0" "$NS_NET:na" "$NS_NET:nb"
}

# brnf 0|1: bridge-nf-call-iptables and -ip6tables in the node namespace.
brnf() {
    nset "$NS_NODE" net.bridge.bridge-nf-call-iptables "$1"
    nset "$NS_NODE" net.bridge.bridge-nf-call-ip6tables "$1"
}

# serve NS PORT [--v6]: a server in the background; returns once it listens.
serve() {
    local ns=$1 port=$2 flag=${3:-} ready
    ready=$(mktemp "$WORK/serve.XXXXXX")
    ip netns exec "$ns" python3 -u "$TCP_PY" serve "$port" ${flag:+"$flag"} >"$ready" 2>&1 9>&- &
    BG_PIDS+=($!)
    wait_for "$ready" listening || die "server in $ns on :$port did not start: $(cat "$ready")"
}

# dial NS EXPECTED tcp.py-dial-args...: a client; fails the scenario on another outcome.
dial() {
    local ns=$1 want=$2 got; shift 2
    got=$(nsx "$ns" python3 "$TCP_PY" dial "$@") || true
    [[ $got == "$want" ]] || die "$SCENARIO: dial $* from $ns: expected $want, got ${got:-nothing}"
    say "  dial $* from ${ns#"$LAB_PREFIX"}: $got"
}

# dial_bg: the same, in the background; collect with dial_wait.
DIAL_JOBS=()
dial_bg() {
    local out; out=$(mktemp "$WORK/dial.XXXXXX")
    ( dial "$@" ) >"$out" 2>&1 &
    DIAL_JOBS+=("$!:$out")
}
dial_wait() {
    local job rc=0
    for job in "${DIAL_JOBS[@]}"; do
        wait "${job%%:*}" || rc=1
        cat "${job#*:}" >&2
    done
    DIAL_JOBS=()
    ((rc == 0)) || die "$SCENARIO: a background dial failed"
}

# wait_for FILE TEXT: poll until FILE contains TEXT (5 s at most).
wait_for() {
    local file=$1 text=$2 i
    for ((i = 0; i < 100; i++)); do
        grep -q -- "$text" "$file" 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}

# cap NS VIEW FILE-EXT RECORDER-ARGS...: start one recorder; "tcpdump ..." or "dumpcap ...".
# Every recorder runs with -p (no promiscuous mode). Promiscuity is a property of the device,
# not of the capture: one promiscuous recorder on cni0 makes the bridge accept every frame it
# forwards, and then the concurrent -i any recording sees bridged unicast on cni0 too, which
# -i any alone never does. With -p each file shows what its view shows when taken alone.
cap() {
    local ns=$1 view=$2 ext=$3 tool=$4; shift 4
    local file=$WORK/$SCENARIO.$view.$ext log=$WORK/$SCENARIO.$view.log
    case $tool in
    tcpdump)
        # -Z root: Debian's tcpdump drops to user tcpdump, who may not write the output dir.
        # --immediate-mode: no packets left in a TPACKET_V3 block when SIGINT arrives; that
        # means TPACKET_V2 with one ring frame per snaplen-sized packet, and the default 2 MiB
        # ring holds only a few 256 KiB frames: -i any dropped one packet of a burst. -B 32 MiB.
        ip netns exec "$ns" tcpdump -p -Z root --immediate-mode -B 32768 -U -w "$file" "$@" >"$log" 2>&1 9>&- &
        ;;
    dumpcap)
        ip netns exec "$ns" dumpcap -q -p -w "$file" "$@" >"$log" 2>&1 9>&- &
        ;;
    esac
    CAP_PIDS+=($!)
    CAP_FILES+=("$file")
    CAP_LOGS+=("$log:$tool")
}

# record pod|ext: start every view of the scenario at once, return when all listen.
#   pod: the client is pod A   ext: the client is in the outside namespace
record() {
    CAP_FILES=(); CAP_LOGS=()
    # Node facts first: their one request to kube-proxy's :10249 must not fall into the recordings; their
    # counters are read again when the scenario is over.
    facts_start
    local veths
    case $1 in
    pod)
        cap "$NS_A" pod-eth0 pcap tcpdump -i eth0
        veths=(-i veth-a -i veth-b)
        ;;
    ext)
        cap "$NS_NODE" node-eth0 pcap tcpdump -i eth0
        veths=(-i eth0)
        ;;
    esac
    cap "$NS_NODE" cni0 pcap tcpdump -i cni0
    cap "$NS_NODE" any pcap tcpdump -i any
    cap "$NS_NODE" any-snap96 pcap tcpdump -i any -s 96
    cap "$NS_NODE" multi pcapng dumpcap -i cni0 "${veths[@]}"
    record_ready
}

# record2: the cross-node scenarios' views (topo2_up), both nodes at once.
record2() {
    CAP_FILES=(); CAP_LOGS=()
    facts_start
    facts_start_b
    cap "$NS_A" pod-eth0 pcap tcpdump -i eth0
    cap "$NS_NODE" node-eth0 pcap tcpdump -i eth0
    cap "$NS_NODE" any pcap tcpdump -i any
    cap "$NS_NODE" multi pcapng dumpcap -i veth-a -i cni0 -i flannel.1 -i eth0
    cap "$NS_NODE_B" node-b-eth0 pcap tcpdump -i eth0
    cap "$NS_NODE_B" node-b-any pcap tcpdump -i any
    cap "$NS_NODE_B" node-b-multi pcapng dumpcap -i eth0 -i flannel.1 -i cni0 -i veth-c
    record_ready
}

# record_ready: wait until every recorder started by cap listens, then start PDLAB_LIVE_CMD.
record_ready() {
    local entry log tool
    for entry in "${CAP_LOGS[@]}"; do
        log=${entry%:*} tool=${entry##*:}
        # tcpdump says "listening on" once its socket is bound; dumpcap names its output file
        # once every interface is open.
        if [[ $tool == tcpdump ]]; then
            wait_for "$log" "listening on" || die "$SCENARIO: tcpdump did not start: $(cat "$log")"
        else
            wait_for "$log" "File:" || die "$SCENARIO: dumpcap did not start: $(cat "$log")"
        fi
    done
    live_start
}

# The context of each scenario, written beside its recordings: the node facts of the node namespace
# (pcapdiag node-facts --sample: read once before the recorders start, their one request to kube-proxy
# kept out of the recordings, and again 3 s later, when the pods have talked: neighbours, forwarding
# entries and counter rises as of then) and the cluster snapshot a real cluster
# would show (snapshot.py). CTX_FILES: file in $WORK -> name under $OUT/$SCENARIO/.
FACTS_PID=
CTX_FILES=()
facts_start() {
    CTX_FILES=()
    nsx "$NS_NODE" "$PCAPDIAG" node-facts --node "$NODE_NAME" --sample 3s -o "$WORK/$SCENARIO.node-facts.json" \
        >"$WORK/$SCENARIO.node-facts.log" 2>&1 &
    FACTS_PID=$!
    wait_for "$WORK/$SCENARIO.node-facts.log" "counters read" ||
        die "$SCENARIO: node-facts did not read the counters: $(cat "$WORK/$SCENARIO.node-facts.log")"
    python3 "$SNAPSHOT_PY" "$SCENARIO" "$WORK/$SCENARIO.cluster.json" || die "$SCENARIO: snapshot.py failed"
    CTX_FILES+=("$WORK/$SCENARIO.cluster.json:cluster.json" "$WORK/$SCENARIO.node-facts.json:node-facts.json")
}

# facts_start_b: the second node's facts too (cross-node scenarios), into node-b-facts.json.
FACTS_B_PID=
facts_start_b() {
    nsx "$NS_NODE_B" "$PCAPDIAG" node-facts --node "$NODE_B_NAME" --sample 3s -o "$WORK/$SCENARIO.node-b-facts.json" \
        >"$WORK/$SCENARIO.node-b-facts.log" 2>&1 &
    FACTS_B_PID=$!
    wait_for "$WORK/$SCENARIO.node-b-facts.log" "counters read" ||
        die "$SCENARIO: node-facts on $NODE_B_NAME did not read the counters: $(cat "$WORK/$SCENARIO.node-b-facts.log")"
    CTX_FILES+=("$WORK/$SCENARIO.node-b-facts.json:node-b-facts.json")
}

facts_wait() {
    if [[ -n $FACTS_B_PID ]]; then
        wait "$FACTS_B_PID" || die "$SCENARIO: pcapdiag node-facts failed: $(cat "$WORK/$SCENARIO.node-b-facts.log")"
        FACTS_B_PID=
    fi
    [[ -n $FACTS_PID ]] || return 0
    wait "$FACTS_PID" || die "$SCENARIO: pcapdiag node-facts failed: $(cat "$WORK/$SCENARIO.node-facts.log")"
    FACTS_PID=
}

# contradict WHAT: the context a scenario's cause is ruled out by, into contradicted/: the cluster
# snapshot changed (snapshot.py --contradicting) and, when WHAT is a command, the node facts read again
# after running it in the node namespace (e.g. bridge-nf-call-iptables set to 1).
contradict() {
    python3 "$SNAPSHOT_PY" --contradicting "$SCENARIO" "$WORK/$SCENARIO.contradicted.cluster.json" ||
        die "$SCENARIO: snapshot.py --contradicting failed"
    CTX_FILES+=("$WORK/$SCENARIO.contradicted.cluster.json:contradicted/cluster.json")
    if (($#)); then
        "$@"
        nsx "$NS_NODE" "$PCAPDIAG" node-facts --node "$NODE_NAME" -o "$WORK/$SCENARIO.contradicted.node-facts.json" \
            >"$WORK/$SCENARIO.contradicted.log" 2>&1 || die "$SCENARIO: node-facts failed: $(cat "$WORK/$SCENARIO.contradicted.log")"
    else
        cp "$WORK/$SCENARIO.node-facts.json" "$WORK/$SCENARIO.contradicted.node-facts.json"
    fi
    CTX_FILES+=("$WORK/$SCENARIO.contradicted.node-facts.json:contradicted/node-facts.json")
}

# PDLAB_LIVE_CMD: a command (e.g. pcapdiag live) to run in the node namespace while each scenario
# plays, for tests that compare it with the recordings. It gets PDLAB_SCENARIO and PDLAB_DIR (where
# the recordings go) and PDLAB_CLUSTER (the scenario's cluster snapshot, as a List of objects) in its
# environment, and NODE_NAME as a DaemonSet gets it from the downward API; its output goes to $PDLAB_DIR/$SCENARIO/live.log, and it
# is stopped with SIGTERM when the recorders stop. The lab waits until that log matches
# PDLAB_LIVE_READY (a grep -E pattern; at most PDLAB_LIVE_READY_TIMEOUT seconds, default 10) if set,
# else 2 s, before playing the scenario. PDLAB_LIVE_NODE=b runs it in the second node's namespace instead (NODE_NAME
# is that node's), for what only the second node of a cross-node scenario sees: pmtu-blackhole's full-size segments.
LIVE_PID=
live_start() {
    [[ -n ${PDLAB_LIVE_CMD:-} ]] || return 0
    local log=$OUT/$SCENARIO/live.log
    # PDLAB_LIVE_NETNS=outside starts it outside the namespace, with PDLAB_NETNS naming it, for what cannot run
    # under ip netns exec (it remounts /sys: a container runtime finds no cgroups there): podman run
    # --network ns:$PDLAB_NETNS.
    local ns=$NS_NODE node=$NODE_NAME
    if [[ ${PDLAB_LIVE_NODE:-} == b ]]; then
        ip netns list | grep -qw "$NS_NODE_B" || die "$SCENARIO: PDLAB_LIVE_NODE=b, but the scenario has no second node"
        ns=$NS_NODE_B node=$NODE_B_NAME
    fi
    local enter=(ip netns exec "$ns")
    [[ ${PDLAB_LIVE_NETNS:-} == outside ]] && enter=()
    "${enter[@]}" env PDLAB_SCENARIO="$SCENARIO" PDLAB_DIR="$OUT" PDLAB_CLUSTER="$WORK/$SCENARIO.cluster.json" NODE_NAME="$node" \
        PDLAB_NETNS="/run/netns/$ns" bash -c "exec $PDLAB_LIVE_CMD" >"$log" 2>&1 9>&- &
    LIVE_PID=$!
    if [[ -n ${PDLAB_LIVE_READY:-} ]]; then
        local i limit=$((${PDLAB_LIVE_READY_TIMEOUT:-10} * 20))
        for ((i = 0; i < limit; i++)); do
            grep -Eq "$PDLAB_LIVE_READY" "$log" 2>/dev/null && return 0
            kill -0 "$LIVE_PID" 2>/dev/null || die "$SCENARIO: PDLAB_LIVE_CMD exited early: $(tail -3 "$log")"
            sleep 0.05
        done
        die "$SCENARIO: PDLAB_LIVE_CMD did not print '$PDLAB_LIVE_READY' within ${PDLAB_LIVE_READY_TIMEOUT:-10} s: $(tail -3 "$log")"
    fi
    sleep 2
}

live_stop() {
    [[ -n $LIVE_PID ]] || return 0
    kill -TERM "$LIVE_PID" 2>/dev/null || true
    local i
    for ((i = 0; i < 200; i++)); do
        kill -0 "$LIVE_PID" 2>/dev/null || break
        sleep 0.05
    done
    kill -KILL "$LIVE_PID" 2>/dev/null || true
    wait "$LIVE_PID" 2>/dev/null || true
    LIVE_PID=
}

# record_stop: let the last packets land, then SIGINT every recorder and wait for it.
record_stop() {
    sleep 0.3
    live_stop
    facts_wait
    local pid
    for pid in "${CAP_PIDS[@]}"; do
        kill -INT "$pid" 2>/dev/null || true
    done
    for pid in "${CAP_PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    CAP_PIDS=()
    # A recording that lost packets would not say what the kernel did.
    local entry log
    for entry in "${CAP_LOGS[@]}"; do
        log=${entry%:*}
        if grep -Eq '^[1-9][0-9]* packets? dropped by (kernel|interface)|received/dropped on interface .*: [0-9]+/[1-9]' "$log"; then
            die "$SCENARIO: a recorder dropped packets: $(grep -E 'dropped' "$log" | tr '\n' ' ')"
        fi
    done
}

# expect VIEW FILTER MIN [MAX]: the recording of VIEW holds MIN..MAX packets matching FILTER.
expect() {
    local view=$1 filter=$2 min=$3 max=${4:-} file n
    local files=("$WORK/$SCENARIO.$view".pcap*)
    file=${files[0]}
    [[ -f $file ]] || die "$SCENARIO: no $view recording"
    n=$(tcpdump -nr "$file" "$filter" 2>/dev/null | wc -l)
    if ((n < min)) || { [[ -n $max ]] && ((n > max)); }; then
        die "$SCENARIO: $view has $n packets matching '$filter', expected ${min}..${max:-}"
    fi
}
