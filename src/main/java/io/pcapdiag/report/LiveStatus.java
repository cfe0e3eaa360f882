package io.pcapdiag.report;

import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Outcome;
import java.util.List;
import java.util.Map;

/**
 * Where a live run stands, for periodic summaries and metrics.
 *
 * @param nowNanos   wall-clock time of this summary
 * @param sinceNanos the previous summary's time (the run's start for the first)
 * @param outcomes   attempts decided so far, by outcome
 * @param findings   current findings per pattern (patterns without any left out)
 * @param attempts   attempts in the current findings, per pattern (every pattern)
 * @param interfaces every interface of the run, in the order they were opened
 * @param connects   connect times of attempts answered since the previous tick (SYN to SYN-ACK), by target
 *                   Service when the context names it; for metrics
 * @param untimed    answered attempts whose connect time was not kept (a burst beyond the bound per tick)
 */
public record LiveStatus(long nowNanos, long sinceNanos, Map<Outcome, Long> outcomes, Map<Pattern, Long> findings,
                      Map<Pattern, Long> attempts, List<InterfaceStatus> interfaces, List<Connect> connects, long untimed) {
    /**
     * One answered attempt's connect time.
     *
     * @param namespace the target Service's namespace, or "" when the context does not name it
     * @param service   the target Service's name, or ""
     * @param nanos     from the first SYN to the SYN-ACK
     */
    public record Connect(String namespace, String service, long nanos) {
    }
}
