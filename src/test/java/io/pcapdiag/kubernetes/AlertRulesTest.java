package io.pcapdiag.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pcapdiag.live.LiveMetrics;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PrometheusRule's alerts, run by Prometheus's own rule engine: {@code promtool check rules} and
 * {@code promtool test rules} (alerts-test.yaml: each alert fires with its labels and annotations, and does not
 * just short of its condition). Every metric an alert reads is one pcapdiag live exports.
 */
class AlertRulesTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static Path kubernetes() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize().resolve("src/main/kubernetes");
    }

    private static JsonNode rule() throws IOException {
        return YAML.readTree(kubernetes().resolve("monitoring/prometheusrule.yaml").toFile());
    }

    private static String expr(String alert) throws IOException {
        for (JsonNode group : rule().get("spec").get("groups")) {
            for (JsonNode r : group.get("rules")) {
                if (alert.equals(r.path("alert").asText())) {
                    return r.get("expr").asText();
                }
            }
        }
        throw new AssertionError("no alert " + alert);
    }

    /**
     * PcapdiagCaptureDown reads {@code up} of the job the shipped PodMonitor gives its targets: the value of the pods'
     * label named by its jobLabel (prometheus-operator's relabeling), and the rule tests feed it that job.
     */
    @Test
    void captureDownWatchesTheJobOfTheShippedPodMonitor() throws Exception {
        JsonNode podMonitor = YAML.readTree(kubernetes().resolve("monitoring/podmonitor.yaml").toFile());
        JsonNode daemonSet = YAML.readTree(kubernetes().resolve("base/daemonset.yaml").toFile());
        String job = daemonSet.at("/spec/template/metadata/labels").get(podMonitor.at("/spec/jobLabel").asText()).asText();
        assertEquals("pcapdiag", job);
        assertTrue(expr("PcapdiagCaptureDown").contains("up{job=\"" + job + "\"}"), expr("PcapdiagCaptureDown"));
        String tests;
        try (InputStream in = AlertRulesTest.class.getResourceAsStream("alerts-test.yaml")) {
            tests = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(tests.contains("'up{job=\"" + job + "\","), "the rule tests scrape the PodMonitor's job");
    }

    @Test
    void promtoolPassesTheRuleTests(@TempDir Path dir) throws Exception {
        JsonNode rule = rule();
        assertEquals("PrometheusRule", rule.get("kind").asText());
        ObjectNode rules = YAML.createObjectNode();
        rules.set("groups", rule.get("spec").get("groups"));
        YAML.writeValue(dir.resolve("rules.yaml").toFile(), rules);
        try (InputStream in = AlertRulesTest.class.getResourceAsStream("alerts-test.yaml")) {
            Files.write(dir.resolve("alerts-test.yaml"), in.readAllBytes());
        }
        assertEquals("", promtool(dir, "check", "rules", "rules.yaml"));
        assertEquals("", promtool(dir, "test", "rules", "alerts-test.yaml"));
    }

    @Test
    void everyAlertReadsMetricsPcapdiagExports() throws Exception {
        Set<String> exported = new TreeSet<>();
        try (LiveMetrics m = new LiveMetrics("node-a")) {
            for (MetricSnapshot s : m.registry().scrape()) {
                String name = s.getMetadata().getPrometheusName();
                boolean counter = s instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot;
                exported.add(counter ? name + "_total" : name);
                if (s instanceof io.prometheus.metrics.model.snapshots.HistogramSnapshot) {
                    exported.addAll(List.of(name + "_bucket", name + "_sum", name + "_count"));
                }
            }
        }
        Set<String> read = new TreeSet<>();
        for (JsonNode group : rule().get("spec").get("groups")) {
            for (JsonNode r : group.get("rules")) {
                Matcher m = Pattern.compile("pcapdiag_[a-z_]+").matcher(r.get("expr").asText());
                while (m.find()) {
                    read.add(m.group());
                }
            }
        }
        assertTrue(read.size() >= 4, "the alerts read " + read);
        read.removeAll(exported);
        assertEquals(Set.of(), read, "metrics the alerts read that pcapdiag does not export (it exports " + exported + ")");
    }

    /** Every pattern an alert selects is one pcapdiag reports: a renamed pattern would silence its alert. */
    @Test
    void everyPatternAnAlertSelectsExists() throws Exception {
        Set<String> ids = new TreeSet<>();
        for (io.pcapdiag.rules.Pattern p : io.pcapdiag.rules.Pattern.values()) {
            ids.add(p.id());
        }
        Set<String> selected = new TreeSet<>();
        for (JsonNode group : rule().get("spec").get("groups")) {
            for (JsonNode r : group.get("rules")) {
                Matcher m = Pattern.compile("pattern=~?\"([^\"]+)\"").matcher(r.get("expr").asText());
                while (m.find()) {
                    selected.addAll(List.of(m.group(1).split("\\|")));
                }
            }
        }
        assertTrue(selected.containsAll(List.of("dns-no-response", "dns-error", "dns-race-lost")), selected.toString());
        assertTrue(selected.containsAll(List.of("pmtu-blackhole", "reset-after-reply", "reset-by-gone-endpoint")),
                selected.toString());
        selected.removeAll(ids);
        assertEquals(Set.of(), selected, "patterns the alerts select that pcapdiag does not report (it reports " + ids + ")");
    }

    /** promtool's complaints, or "" when it succeeded; its success lines are not complaints. */
    private static String promtool(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("promtool must be installed in CI (scripts/test installs Debian's prometheus)");
            }
            Assumptions.abort("promtool is not installed (apt-get install prometheus)");
            return "";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
        return p.exitValue() == 0 ? "" : "promtool " + String.join(" ", args) + " failed:\n" + out;
    }
}
