package io.pcapdiag.diagnosis;

import io.pcapdiag.causes.Causes;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.Ref;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Rules;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/** Explains findings into {@link Diagnosis diagnoses}, with what the context knows. */
public final class Diagnose {
    private final Context context;
    private final boolean citeCaptures;

    /** @param citeCaptures the run reads several captures, so references to packets name the capture */
    public Diagnose(Context context, boolean citeCaptures) {
        this.context = context;
        this.citeCaptures = citeCaptures;
    }

    public Diagnosis of(Finding f) {
        return new Diagnosis(f, name(f.client()), name(f.target()), f.responder() == null ? null : name(f.responder()),
                Causes.judge(f, context), evidence(f.examples().get(0)), Rules.rule(f.pattern()).explain(f, context),
                citeCaptures, context.informs());
    }

    private Ref name(io.pcapdiag.track.Endpoint e) {
        return context.ref(e).orElse(null);
    }

    /** The packets of one attempt that tell its story: its SYN, its DNAT'ed copy, the answer, the client's reset. */
    static List<EvidencePacket> evidence(Attempt a) {
        List<EvidencePacket> out = new ArrayList<>(4);
        out.add(packet(Role.SYN, a.syn()));
        if (a.natCopy() != null) {
            out.add(packet(Role.DNAT_COPY, a.natCopy()));
        }
        Sighting answer = a.answer();
        if (answer != null) {
            out.add(packet(answer.icmp ? Role.ICMP : answer == a.reset() ? Role.RST : Role.SYN_ACK, answer));
        }
        if (a.clientReset() != null) {
            out.add(packet(Role.CLIENT_RST, a.clientReset()));
        }
        return out;
    }

    private static EvidencePacket packet(Role role, Sighting s) {
        return new EvidencePacket(role, s.capture.name(), s.frame, s.nanos, PacketLine.where(s), PacketLine.tcpdump(s));
    }
}
