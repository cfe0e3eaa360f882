package io.pcapdiag.diagnosis;

import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.context.Ref;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import java.util.List;

/**
 * A finding, explained once for every reporter: who it concerns, its candidate causes judged, its
 * evidence packets and its explanation.
 *
 * @param finding      the group of attempts and what they share
 * @param client       the client's Kubernetes name, or null when the context does not know it
 * @param target       the target's (a Service and its port, or a pod), or null
 * @param responder    the responder's, or null
 * @param causes       candidate causes, confirmed first, contradicted last; empty when the pattern has none
 * @param evidence     the packets of its first attempt, in the order of the story
 * @param path         where the first attempt's SYN was seen, in the order it got there
 * @param lastSeen     for an unanswered finding, the last place its SYN was seen; else null
 * @param frames       every packet counted to the finding's example attempts, with its role
 * @param displayFilter a Wireshark display filter that selects exactly {@code frames} in the original captures
 * @param decodeAs     what Wireshark must be told to decode for the filter to see those frames, as tshark's
 *                     {@code -d} takes it ({@code udp.port==8472,vxlan}: frames inside VXLAN on port 8472); else null
 * @param vanished     for an unanswered finding whose path the context can tell, between which two places the
 *                     SYN vanished (e.g. "after DNAT on cni0, before veth-b"); else null
 * @param explanation  what happened, what it rests on, how to check and fix it
 * @param citeCaptures the run read several captures: references to packets name the capture
 * @param informed     a cluster snapshot or node facts were given: causes left unknown are so for want of
 *                     the kind of context they need, not for want of any
 */
public record Diagnosis(Finding finding, Ref client, Ref target, Ref responder, List<CauseVerdict> causes,
                        List<EvidencePacket> evidence, List<FrameRef> frames, String displayFilter, String decodeAs, List<PathHop> path,
                        PathHop lastSeen, String vanished, Explanation explanation, boolean citeCaptures, boolean informed) {
    public Diagnosis {
        causes = List.copyOf(causes);
        evidence = List.copyOf(evidence);
        frames = List.copyOf(frames);
        path = List.copyOf(path);
    }
}
