# shellcheck shell=bash
# The established-connection scenarios: failures after the handshake, on the two-node VXLAN topology
# of the cross-node scenarios (topo2_up): an MTU black hole and its healthy twin, a reply that leaves
# un-NATed after its conntrack entry is deleted mid-stream, and a backend whose pod goes away
# mid-stream. Client pod A on node A, server pod C on node B, bulk.py on both ends.
# Sourced by scenarios.sh; needs lib.sh. See scripts/lab/README.md, "Established connections".
# shellcheck disable=SC2034,SC2153

SCENARIOS+=(pmtu-blackhole pmtu-healthy reset-after-reply reset-by-gone-endpoint)
BULK_PY=$LAB_DIR/bulk.py
SVC_API4=10.96.70.70     # ClusterIP of Service "api" (port 8080 -> pod C:80; snapshot.py)
BULK_SIZE=102400         # the response of the MTU scenarios
BULK_PID=                # the server in pod C

# bulk_serve ARGS...: bulk.py serve in pod C on :80, in the background; returns once it listens.
bulk_serve() {
    local ready; ready=$(mktemp "$WORK/bulk.XXXXXX")
    ip netns exec "$NS_C" python3 -u "$BULK_PY" serve 80 "$@" >"$ready" 2>&1 9>&- &
    BULK_PID=$!
    BG_PIDS+=("$BULK_PID")
    wait_for "$ready" listening || die "$SCENARIO: bulk server in pod C did not start: $(cat "$ready")"
}

# fetch WANT bulk.py-get-args...: the client in pod A; fails the scenario unless the outcome's first word
# is WANT.
fetch() {
    local want=$1 got; shift
    got=$(nsx "$NS_A" python3 "$BULK_PY" get "$@") || true
    [[ ${got%% *} == "$want" ]] || die "$SCENARIO: bulk.py get $* in pod A: expected $want, got ${got:-nothing}"
    say "  get $*: $got"
}
fetch_bg() {
    FETCH_OUT=$(mktemp "$WORK/fetch.XXXXXX")
    ( fetch "$@" ) >"$FETCH_OUT" 2>&1 &
    FETCH_JOB=$!
}
fetch_wait() {
    local rc=0
    wait "$FETCH_JOB" || rc=1
    cat "$FETCH_OUT" >&2
    ((rc == 0)) || die "$SCENARIO: the client's outcome was not the expected one"
}

# One segment per skb in the pods: veth offloads TSO, and a recording of a TSO sender holds 64-KB
# "segments" the wire never carries (ethtool is not here; gso_max_segs 1 does the same for TCP, which
# sizes its skbs by the device's limit).
pods_no_tso() {
    nsx "$NS_A" ip link set eth0 gso_max_segs 1
    nsx "$NS_C" ip link set eth0 gso_max_segs 1
}

# pods_mtu MTU: both pods' eth0 and their veths, as a CNI configured with that MTU sets them.
pods_mtu() {
    nsx "$NS_A" ip link set eth0 mtu "$1"
    nsx "$NS_C" ip link set eth0 mtu "$1"
    nsx "$NS_NODE" ip link set veth-a mtu "$1"
    nsx "$NS_NODE_B" ip link set veth-c mtu "$1"
}

# record_est [--no-veth-c]: the cross-node views (record2) plus node A's any with a 96-byte snaplen.
# The full-size any views get a 256-MiB ring (-B, the last one given wins): with --immediate-mode each
# packet takes a 256-KiB ring frame, and pmtu-healthy's 100-KB response crosses four interfaces of a
# node in one burst, more than the 128 frames of the lab's usual 32 MiB (tcpdump dropped 260 packets).
# --no-veth-c leaves veth-c out of node B's multi: dumpcap stops recording every interface when one of
# them goes away (the backend's veth in reset-by-gone-endpoint); node-b-any keeps what crossed it.
record_est() {
    CAP_FILES=(); CAP_LOGS=()
    facts_start
    facts_start_b
    local bmulti=(-i eth0 -i flannel.1 -i cni0 -i veth-c)
    [[ ${1:-} == --no-veth-c ]] && bmulti=(-i eth0 -i flannel.1 -i cni0)
    cap "$NS_A" pod-eth0 pcap tcpdump -i eth0
    cap "$NS_NODE" node-eth0 pcap tcpdump -i eth0
    cap "$NS_NODE" any pcap tcpdump -i any -B 262144
    cap "$NS_NODE" any-snap96 pcap tcpdump -i any -s 96
    cap "$NS_NODE" multi pcapng dumpcap -i veth-a -i cni0 -i flannel.1 -i eth0
    cap "$NS_NODE_B" node-b-eth0 pcap tcpdump -i eth0
    cap "$NS_NODE_B" node-b-any pcap tcpdump -i any -B 262144
    cap "$NS_NODE_B" node-b-multi pcapng dumpcap "${bmulti[@]}"
    record_ready
}

# contradict2 [COMMAND...]: contradict (the changed cluster, node A's facts read again after COMMAND)
# and node B's facts read again too, into contradicted/node-b-facts.json.
contradict2() {
    contradict "$@"
    if (($#)); then
        nsx "$NS_NODE_B" "$PCAPDIAG" node-facts --node "$NODE_B_NAME" -o "$WORK/$SCENARIO.contradicted.node-b-facts.json" \
            >"$WORK/$SCENARIO.contradicted-b.log" 2>&1 ||
            die "$SCENARIO: node-facts on $NODE_B_NAME failed: $(cat "$WORK/$SCENARIO.contradicted-b.log")"
    else
        cp "$WORK/$SCENARIO.node-b-facts.json" "$WORK/$SCENARIO.contradicted.node-b-facts.json"
    fi
    CTX_FILES+=("$WORK/$SCENARIO.contradicted.node-b-facts.json:contradicted/node-b-facts.json")
}

# kube-proxy's rule for Service api (ClusterIP 10.96.70.70:8080 -> pod C:80) on node A, where the
# client's SYN is DNAT'ed.
api_service() {
    kube_chains iptables
    nsx "$NS_NODE" iptables -t nat -A KUBE-SERVICES -d "$SVC_API4/32" -p tcp --dport 8080 \
        -m comment --comment "default/api:http cluster IP" -j DNAT --to-destination "$C4:80"
}

# pmtu MODE (blackhole | healthy): pod A fetches a 100-KB response from pod C:80 across the VXLAN.
# Underlay (eth0) MTU 1500; flannel.1 gets 1450 from the kernel (1500 less VXLAN's 50 bytes: outer IPv4
# 20, UDP 8, VXLAN 8, inner Ethernet 14).
#   blackhole  the pods and their veths keep MTU 1500 (a CNI configured with the underlay's MTU): both
#              SYNs carry MSS 1460, so pod C's full segments are 1500-byte IP packets. Linux TCP sets DF
#              on them (ip_no_pmtu_disc 0: IP_PMTUDISC_WANT), so node B cannot fragment them into the
#              1450-byte tunnel: ip_forward() drops each one and sends ICMP "fragmentation needed"
#              (type 3 code 4, next-hop MTU 1450) to pod C. That ICMP is dropped on node B (an ebtables
#              OUTPUT rule: it leaves cni0, as the -i any view shows, and never reaches veth-c), so
#              pod C's PMTU discovery (RFC 1191) never learns, and with tcp_mtu_probing 0 (the default)
#              TCP never probes smaller sizes (RFC 4821) either: it retransmits the same 1500-byte
#              segment with exponential backoff. The response head (a small segment) gets through and
#              is acknowledged; the client waits 4 s for the body's first byte and gives up.
#   healthy    the same with the pods and veths at MTU 1450 (what the CNI's MTU setting gives): MSS
#              1410, every segment fits the tunnel, the fetch completes. The ICMP drop stays.
pmtu() {
    local mode=$1
    topo2_up
    [[ $mode == healthy ]] && pods_mtu 1450
    pods_no_tso
    nsx "$NS_NODE_B" ebtables -A OUTPUT -p IPv4 --ip-proto icmp --ip-icmp-type fragmentation-needed -j DROP
    bulk_serve --size "$BULK_SIZE"
    record_est
    if [[ $mode == healthy ]]; then
        fetch ok "$C4" 80 --sport 40001 --timeout 4
    else
        fetch timeout "$C4" 80 --sport 40001 --timeout 4
    fi
    record_stop
    # The node facts of nodes whose pods' veths fit the tunnel (the cluster unchanged).
    [[ $mode == blackhole ]] && contradict2 mtu_fits
    local big="src host $C4 and src port 80 and ip[2:2] > 1450"
    expect pod-eth0 "src host $C4 and tcp[tcpflags] == tcp-syn|tcp-ack" 1 1
    if [[ $mode == healthy ]]; then
        expect pod-eth0 "src host $C4 and ip[2:2] == 1450" 70
        expect node-b-any "$big" 0 0
        return
    fi
    expect pod-eth0 "$big" 0 0                              # no full-size segment ever reached pod A
    expect pod-eth0 "src host $C4 and src port 80 and tcp[tcpflags] & tcp-push != 0 and ip[2:2] < 400" 1 1   # the response head
    expect node-b-any "$big" 10                             # pod C's segments on veth-c and cni0, retransmitted
    expect node-b-any "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 4 and dst host $C4" 1   # on cni0 only
    expect node-b-eth0 "ip[2:2] > 1450" 0 0                 # nothing that size crossed the underlay
    expect node-eth0 "ip[2:2] > 1450" 0 0
    expect pod-eth0 "icmp" 0 0
}
mtu_fits() { pods_mtu 1450; }
sc_pmtu_blackhole() { pmtu blackhole; }
sc_pmtu_healthy() { pmtu healthy; }

# reset-after-reply: pod A dials Service api (10.96.70.70:8080, DNAT'ed on node A to pod C:80 across the
# tunnel) and reads a slow stream (200 bytes every 0.5 s), sending a heartbeat line every 2 s. Right
# after the first heartbeat the lab deletes the connection's conntrack entry on node A (conntrack -D, as a
# conntrack flush, a table overflow's early drop or an entry expired during a long idle do), so that the
# next packet is pod C's: had the client's heartbeat come first, loose pickup would have made a new entry
# for it, DNAT'ed by the Service's rule to the same pod, and the connection would go on unharmed.
# Pod C's next segment reaches
# node A with no entry to reverse-NAT it: nf_conntrack_tcp_loose (1, the default) picks the segment up
# as a new connection in the reply direction (tcp_new(), with liberal window tracking), no DNAT rule
# matches a packet from C:80, and it leaves for pod A from C's own address and port. Pod A has no socket
# for C:80, so its kernel answers RST (RFC 9293 3.10.7.1), and that RST, in C's window, resets pod C's
# socket. The client's next heartbeat makes a new entry (loose pickup, DNAT'ed to pod C again), pod C's
# kernel answers it with RST, reverse-NAT'ed from the Service's address: the client reads "connection
# reset by peer". See scripts/lab/README.md, "conntrack -D on this kernel", for the other variants
# (PDLAB_CT_VARIANT, with PDLAB_CT_WANT the client's outcome they give).
sc_reset_after_reply() {
    topo2_up
    pods_no_tso
    api_service
    ct_variant "${PDLAB_CT_VARIANT:-plain}"
    bulk_serve --stream 200 --every 0.5
    record_est
    fetch_bg "${PDLAB_CT_WANT:-reset}" "$SVC_API4" 8080 --sport 40001 --timeout 4 --ping 2 --mark "$WORK/mark" --for 10
    wait_for "$WORK/mark" "ping 1" || wait_for "$WORK/mark" "ping 1" || die "$SCENARIO: the client sent no heartbeat"
    local n
    n=$(nsx "$NS_NODE" conntrack -D -p tcp --orig-port-src 40001 2>&1 | grep -c "dport=8080") || true
    ((n == 1)) || die "$SCENARIO: conntrack -D deleted $n entries for port 40001, expected 1"
    fetch_wait
    record_stop
    # The node with kube-proxy's INVALID drop rule and nf_conntrack_tcp_be_liberal 1 (the cluster unchanged).
    contradict ct_variant invalid-drop-liberal
    expect pod-eth0 "src host $SVC_API4 and src port 8080 and tcp[tcpflags] == tcp-syn|tcp-ack" 1 1
    expect pod-eth0 "src host $SVC_API4 and src port 8080 and tcp[tcpflags] & tcp-push != 0" 4   # the stream, NAT'ed
    [[ ${PDLAB_CT_VARIANT:-plain} == plain ]] || return 0
    expect pod-eth0 "src host $C4 and src port 80" 1                               # un-NATed
    expect pod-eth0 "dst host $C4 and dst port 80 and tcp[tcpflags] & tcp-rst != 0" 1
    expect pod-eth0 "src host $SVC_API4 and src port 8080 and tcp[tcpflags] & tcp-rst != 0" 1    # what the client reads
}

# ct_variant NAME: node A's conntrack settings for reset-after-reply.
#   plain                 the defaults: no INVALID rule, tcp_be_liberal 0, tcp_loose 1
#   invalid-drop          kube-proxy's rule (iptables mode since 1.15): FORWARD -m conntrack --ctstate INVALID -j DROP
#   liberal               nf_conntrack_tcp_be_liberal 1 (kube-proxy's conntrack.tcpBeLiberal)
#   invalid-drop-liberal  both (the contradicting node facts)
#   loose0                nf_conntrack_tcp_loose 0: a mid-stream segment without an entry is INVALID
#   loose0-invalid-drop   both
ct_variant() {
    case $1 in
    plain) ;;
    invalid-drop | loose0-invalid-drop | invalid-drop-liberal)
        nsx "$NS_NODE" iptables -I FORWARD 1 -m conntrack --ctstate INVALID \
            -m comment --comment "kubernetes forwarding conntrack rule" -j DROP
        ;;&
    liberal | invalid-drop-liberal) nset "$NS_NODE" net.netfilter.nf_conntrack_tcp_be_liberal 1 ;;&
    loose0 | loose0-invalid-drop) nset "$NS_NODE" net.netfilter.nf_conntrack_tcp_loose 0 ;;&
    plain | invalid-drop | liberal | invalid-drop-liberal | loose0 | loose0-invalid-drop) ;;
    *) die "unknown PDLAB_CT_VARIANT '$1'" ;;
    esac
}

# reset-by-gone-endpoint: pod A reads pod C's slow stream through Service api (as in reset-after-reply),
# sending a heartbeat every 0.5 s; 2 s in, pod C goes away as a pod does when its node's CNI tears it
# down under it: its veth is deleted (CNI DEL), then its process is killed and its namespace deleted, so
# neither a FIN nor a RST from it reaches anyone. Node A's conntrack entry still DNATs the flow to
# 10.244.1.20 and node B still routes that address to cni0: A's heartbeats are retransmitted into the
# tunnel. Node B forwards them to the pod's old MAC while its neighbour entry lasts (the bridge floods
# them: no port has that MAC any more); the entry goes stale, node B probes it with unicast ARP (3 times,
# 1 s apart: NUD_PROBE transmits, it does not queue, so no ICMP comes of it), marks it failed, and
# resolves it afresh on the next retransmission: 3 broadcast ARP requests, no answer, and the packets
# queued meanwhile are answered with ICMP host unreachable (type 3 code 1, arp_error_report()) from node
# B's VTEP address 10.244.1.0 (the route back to pod A goes via flannel.1), reverse-NAT'ed by node A's
# conntrack as related to the connection: pod A gets it from 10.96.70.70. TCP keeps it as a soft error
# and retransmits on. Node B's neighbour timers on cni0 are shortened (base_reachable_time_ms 1000,
# delay_first_probe_time 1; the defaults, 30 s and 5 s, put the ARP failure about a minute after the
# deletion) so that it happens within the recording. The client gives up after 14 s without a byte.
sc_reset_by_gone_endpoint() {
    topo2_up
    pod_c2_up
    pods_no_tso
    api_service
    nset "$NS_NODE_B" net.ipv4.neigh.cni0.base_reachable_time_ms 1000
    nset "$NS_NODE_B" net.ipv4.neigh.cni0.delay_first_probe_time 1
    bulk_serve --stream 200 --every 0.5
    record_est --no-veth-c
    fetch_bg timeout "$SVC_API4" 8080 --sport 40001 --timeout 14 --ping 0.5 --for 30
    sleep 2
    nsx "$NS_NODE_B" ip link del veth-c
    kill "$BULK_PID"
    wait "$BULK_PID" 2>/dev/null || true
    ip netns del "$NS_C"
    fetch_wait
    record_stop
    contradict   # the cluster with pod C still a ready endpoint
    expect pod-eth0 "src host $SVC_API4 and src port 8080 and tcp[tcpflags] == tcp-syn|tcp-ack" 1 1
    # who-has 10.244.1.20: the first, answered, on cni0, veth-c and veth-c2; then at least 3 more, unanswered,
    # on cni0 and veth-c2
    expect node-b-any "arp and arp[6:2] == 1 and arp[24:4] == 0x0af40114" 9
    expect node-b-any "arp and arp[6:2] == 2" 2 2                 # the one answer, before the deletion (on veth-c and cni0)
    expect node-b-any "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 1 and src host $FLANNEL4_B" 1
    expect pod-eth0 "icmp[icmptype] == icmp-unreach and icmp[icmpcode] == 1" 1
    expect pod-eth0 "tcp[tcpflags] & tcp-rst != 0" 0 0
}

# pod_c2_up: a second pod on node B's cni0 (10.244.1.21, the replacement api pod of cluster.json), idle.
# It keeps the bridge's carrier up when pod C's veth goes: a bridge without ports loses its carrier, and
# then the node's ARP probes for the gone pod never reach a capture (nothing is transmitted on cni0).
C2_4=10.244.1.21
NS_C2=${LAB_PREFIX}c2
pod_c2_up() {
    ns_init "$NS_C2" 4
    nsx "$NS_NODE_B" ip link add veth-c2 address 02:00:00:00:02:0e type veth peer name eth0 netns "$NS_C2" address 02:00:00:00:0f:01
    nsx "$NS_NODE_B" ip link set veth-c2 master cni0
    nsx "$NS_C2" ip addr add "$C2_4/24" dev eth0
    nsx "$NS_C2" ip link set eth0 up
    nsx "$NS_NODE_B" ip link set veth-c2 up
    nsx "$NS_C2" ip route add default via "$GW4_B"
    topo_settle 4 "$NS_NODE_B:veth-c2" "$NS_C2:eth0" "$NS_NODE_B:cni0"
}
