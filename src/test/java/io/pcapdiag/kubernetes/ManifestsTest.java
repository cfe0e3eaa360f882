package io.pcapdiag.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.pcapdiag.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Loads src/main/kubernetes into the Kubernetes API model (fabric8) and checks what makes the DaemonSet
 * work on every node without more privilege than capture needs. No cluster runs here: this is as far as
 * the manifests can be checked without one.
 */
class ManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static Path kubernetes() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize()
                .resolve("src/main/kubernetes");
    }

    /** The least-privilege default: src/main/kubernetes/base. */
    private static Path dir() {
        return kubernetes().resolve("base");
    }

    private static <T extends HasMetadata> T load(String file, Class<T> type) throws Exception {
        T resource = YAML.readValue(dir().resolve(file).toFile(), type);
        List<String> unknown = new ArrayList<>();
        unknownFields(resource, type.getSimpleName(), unknown, new IdentityHashMap<>());
        // The model keeps unknown keys aside instead of failing: a misspelt field would be silently ignored by us
        // and refused by the API server.
        assertEquals(List.of(), unknown, file + " has fields the Kubernetes API does not know");
        return resource;
    }

    private static DaemonSet daemonSet() throws Exception {
        return load("daemonset.yaml", DaemonSet.class);
    }

    private static Container container(DaemonSet ds) {
        List<Container> cs = ds.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(1, cs.size());
        return cs.get(0);
    }

    @Test
    void kustomizationListsEveryManifest() throws Exception {
        JsonNode k = YAML.readTree(dir().resolve("kustomization.yaml").toFile());
        assertEquals("Kustomization", k.get("kind").asText());
        Set<String> listed = new TreeSet<>();
        k.get("resources").forEach(n -> listed.add(n.asText()));
        Set<String> present = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir())) {
            s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml"))
                    .forEach(present::add);
        }
        assertEquals(present, listed);
        // No kustomization namespace: it would move rbac.yaml's kube-system Role. Every object names its own.
        assertNull(k.get("namespace"));
        // The image the kustomization rewrites is the one the DaemonSet runs.
        String image = container(daemonSet()).getImage();
        assertEquals(image.split(":")[0], k.get("images").get(0).get("name").asText());
    }

    @Test
    void namespaceAndServiceAccount() throws Exception {
        Namespace ns = load("namespace.yaml", Namespace.class);
        assertEquals("pcapdiag", ns.getMetadata().getName());
        ServiceAccount sa = load("serviceaccount.yaml", ServiceAccount.class);
        assertEquals("pcapdiag", sa.getMetadata().getNamespace());
        assertEquals(Boolean.FALSE, sa.getAutomountServiceAccountToken(), "the token is mounted only where it is used");
        DaemonSet ds = daemonSet();
        assertEquals(sa.getMetadata().getName(), ds.getSpec().getTemplate().getSpec().getServiceAccountName());
        assertEquals(Boolean.TRUE, ds.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken(),
                "live watches the cluster with the pod's token (--watch-cluster auto)");
        assertEquals("pcapdiag", ds.getMetadata().getNamespace());
    }

    /**
     * The service account may read what live's informers watch (ClusterWatch) and nothing more: get, list and watch,
     * no write verb, no secrets; kube-proxy's ConfigMap by name in kube-system.
     */
    @Test
    void rbacGrantsReadOnlyWhatLiveWatches() throws Exception {
        List<HasMetadata> rbac = new ArrayList<>();
        for (String doc : Files.readString(dir().resolve("rbac.yaml"), StandardCharsets.UTF_8).split("(?m)^---$")) {
            rbac.add(io.fabric8.kubernetes.client.utils.Serialization.unmarshal(doc));
        }
        Map<String, Set<String>> granted = new java.util.TreeMap<>();
        for (HasMetadata r : rbac) {
            List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> rules = r instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRole cr
                    ? cr.getRules() : r instanceof io.fabric8.kubernetes.api.model.rbac.Role role ? role.getRules() : List.of();
            for (io.fabric8.kubernetes.api.model.rbac.PolicyRule rule : rules) {
                assertEquals(Set.of("get", "list", "watch"), Set.copyOf(rule.getVerbs()), r.getMetadata().getName());
                for (String res : rule.getResources()) {
                    String where = r.getKind().equals("Role") ? r.getMetadata().getNamespace() + "/" : "";
                    granted.computeIfAbsent(where + rule.getApiGroups().get(0) + "/" + res, x -> new TreeSet<>())
                            .addAll(rule.getResourceNames());
                }
            }
            if (r instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding b) {
                assertEquals("pcapdiag", b.getSubjects().get(0).getName());
                assertEquals("pcapdiag", b.getSubjects().get(0).getNamespace());
            }
            if (r instanceof io.fabric8.kubernetes.api.model.rbac.RoleBinding b) {
                assertEquals("pcapdiag", b.getSubjects().get(0).getNamespace());
            }
        }
        assertEquals(Map.of("/services", Set.of(), "/pods", Set.of(), "/nodes", Set.of(),
                "discovery.k8s.io/endpointslices", Set.of(), "networking.k8s.io/networkpolicies", Set.of(),
                "kube-system//configmaps", Set.of("kube-proxy")), granted);
    }

    /**
     * What {@code kubectl kustomize DIR} prints, which must be all it says: no error, no warning (kustomize v5 warns on
     * deprecated fields on stderr). Without kubectl, or with one whose kustomize predates {@code resources:} naming a
     * directory (kubectl 1.20, kustomize 2.0), the test is skipped, and fails in CI (scripts/test installs kubectl).
     */
    private static String kustomize(Path dir) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).start();
        } catch (java.io.IOException e) {
            skipUnlessCi("kubectl is not installed");
            return null;
        }
        java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        String said = new String(err.get(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0 && said.contains("must be a file")) {
            skipUnlessCi("this kubectl's kustomize is older than v2.1 (kubectl 1.20) and reads no directory under resources: "
                    + said.strip());
        }
        assertEquals(0, p.exitValue(), "kubectl kustomize " + dir + ": " + said);
        assertEquals("", said, "kubectl kustomize " + dir + " says something (a deprecated field?)");
        return out;
    }

    private static void skipUnlessCi(String why) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail(why + ": scripts/test installs a kubectl that must run here in CI");
        }
        org.junit.jupiter.api.Assumptions.abort(why);
    }

    private static List<HasMetadata> rendered(String variant) throws Exception {
        List<HasMetadata> out = new ArrayList<>();
        for (String doc : kustomize(kubernetes().resolve(variant)).split("(?m)^---$")) {
            out.add(io.fabric8.kubernetes.client.utils.Serialization.unmarshal(doc));
        }
        return out;
    }

    /**
     * The events variant: the default plus create on events.k8s.io/events and --events among live's arguments
     * (which live accepts), nothing else.
     */
    @Test
    void theEventsVariantAddsTheFlagAndCreateOnEventsOnly() throws Exception {
        List<HasMetadata> base = rendered("base");
        List<HasMetadata> events = rendered("events");
        DaemonSet ds = (DaemonSet) events.stream().filter(o -> o instanceof DaemonSet).findFirst().orElseThrow();
        List<String> args = container(ds).getArgs();
        assertEquals("--events", args.get(args.size() - 1));
        CommandLine.ParseResult parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));
        assertTrue(parsed.subcommand().hasMatchedOption("--events"));
        List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> added = events.stream()
                .filter(o -> o instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRole r && r.getMetadata().getName().equals("pcapdiag-events"))
                .flatMap(o -> ((io.fabric8.kubernetes.api.model.rbac.ClusterRole) o).getRules().stream()).toList();
        assertEquals(1, added.size());
        assertEquals(List.of("events.k8s.io"), added.get(0).getApiGroups());
        assertEquals(List.of("events"), added.get(0).getResources());
        assertEquals(List.of("create"), added.get(0).getVerbs());
        assertEquals(base.size() + 2, events.size(), "the role and its binding, nothing else");
    }

    /**
     * kubectl renders both variants, every object lands in its namespace, and the privileged one differs from
     * the default in the container's securityContext alone.
     */
    @Test
    void bothVariantsRenderAndDifferOnlyInPrivilege() throws Exception {
        List<HasMetadata> base = rendered("base");
        List<HasMetadata> privileged = rendered("privileged");
        assertEquals(List.of("ClusterRole", "ClusterRoleBinding", "DaemonSet", "Namespace", "Role", "RoleBinding",
                "ServiceAccount"), base.stream().map(HasMetadata::getKind).sorted().toList());
        for (HasMetadata o : base) {
            String ns = o.getMetadata().getNamespace();
            switch (o.getKind()) {
                case "Role", "RoleBinding" -> assertEquals("kube-system", ns, o.getMetadata().getName());
                case "DaemonSet", "ServiceAccount" -> assertEquals("pcapdiag", ns, o.getMetadata().getName());
                default -> assertNull(ns, o.getKind() + " is cluster-scoped");
            }
        }
        DaemonSet plain = (DaemonSet) base.stream().filter(o -> o instanceof DaemonSet).findFirst().orElseThrow();
        DaemonSet priv = (DaemonSet) privileged.stream().filter(o -> o instanceof DaemonSet).findFirst().orElseThrow();
        assertEquals(Set.of("NET_RAW"), Set.copyOf(container(plain).getSecurityContext().getCapabilities().getAdd()));
        assertEquals("pcapdiag:0.1.0", container(plain).getImage(), "the kustomization's image tag is applied");
        SecurityContext sc = container(priv).getSecurityContext();
        assertEquals(Boolean.TRUE, sc.getPrivileged());
        assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem());
        assertEquals(0L, sc.getRunAsUser());
        container(priv).setSecurityContext(container(plain).getSecurityContext());
        assertEquals(base.stream().map(io.fabric8.kubernetes.client.utils.Serialization::asYaml).toList(),
                privileged.stream().map(io.fabric8.kubernetes.client.utils.Serialization::asYaml).toList());
    }

    /** Every kustomization renders with kubectl without a word on stderr and uses no field kustomize v5 deprecates. */
    @Test
    void everyKustomizationRendersWithoutAWarning() throws Exception {
        List<String> dirs;
        try (Stream<Path> s = Files.list(kubernetes())) {
            dirs = s.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of("base", "events", "monitoring", "privileged"), dirs);
        for (String d : dirs) {
            JsonNode k = YAML.readTree(kubernetes().resolve(d).resolve("kustomization.yaml").toFile());
            Set<String> deprecated = new TreeSet<>();
            k.fieldNames().forEachRemaining(deprecated::add);
            deprecated.retainAll(Set.of("bases", "patchesStrategicMerge", "patchesJson6902", "commonLabels", "vars", "imageTags"));
            assertEquals(Set.of(), deprecated, d + "/kustomization.yaml");
            assertFalse(rendered(d).isEmpty(), d);
        }
    }

    /**
     * The PodMonitor and the PrometheusRule, as kubectl renders monitoring/, hold only fields of the prometheus-operator
     * CRDs (v0.93.0's schemas, in the test resources) with values of their types, and the PodMonitor scrapes what the
     * DaemonSet serves: its pods by their labels, in its namespace, the metrics port by name, the annotations' path.
     */
    @Test
    void podMonitorScrapesTheDaemonSetAsTheOperatorsCrdDefinesIt() throws Exception {
        Map<String, JsonNode> byKind = new java.util.TreeMap<>();
        for (String doc : kustomize(kubernetes().resolve("monitoring")).split("(?m)^---$")) {
            JsonNode o = YAML.readTree(doc);
            byKind.put(o.get("kind").asText(), o);
        }
        assertEquals(Set.of("PodMonitor", "PrometheusRule"), byKind.keySet());
        assertEquals(List.of(), crdProblems(byKind.get("PodMonitor"), "podmonitors"));
        assertEquals(List.of(), crdProblems(byKind.get("PrometheusRule"), "prometheusrules"));

        JsonNode pm = byKind.get("PodMonitor").get("spec");
        DaemonSet ds = daemonSet();
        Map<String, String> podLabels = ds.getSpec().getTemplate().getMetadata().getLabels();
        pm.get("selector").get("matchLabels").fields().forEachRemaining(e ->
                assertEquals(e.getValue().asText(), podLabels.get(e.getKey()), "the selector matches the pods: " + e.getKey()));
        assertEquals(List.of(ds.getMetadata().getNamespace()),
                YAML.convertValue(pm.get("namespaceSelector").get("matchNames"), List.class));
        assertEquals(1, pm.get("podMetricsEndpoints").size());
        JsonNode ep = pm.get("podMetricsEndpoints").get(0);
        Container c = container(ds);
        assertTrue(c.getPorts().stream().anyMatch(p -> p.getName().equals(ep.get("port").asText())), "a port of the container");
        assertEquals(ds.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/path"), ep.get("path").asText());
        // pcapdiag_findings_total's namespace label (the Service's) must not become exported_namespace.
        assertTrue(ep.get("honorLabels").asBoolean());
        assertNotNull(podLabels.get(pm.get("jobLabel").asText()), "the job comes from a label the pods have");
    }

    /** Where {@code o} departs from the openAPIV3Schema of the CRD {@code crd/monitoring.coreos.com_NAME.yaml}. */
    private static List<String> crdProblems(JsonNode o, String name) throws Exception {
        JsonNode crd;
        try (java.io.InputStream in = ManifestsTest.class.getResourceAsStream("crd/monitoring.coreos.com_" + name + ".yaml")) {
            crd = YAML.readTree(in);
        }
        String[] apiVersion = o.get("apiVersion").asText().split("/");
        assertEquals(crd.at("/spec/group").asText(), apiVersion[0]);
        assertEquals(crd.at("/spec/names/kind").asText(), o.get("kind").asText());
        JsonNode schema = null;
        for (JsonNode v : crd.at("/spec/versions")) {
            if (v.get("name").asText().equals(apiVersion[1]) && v.get("served").asBoolean()) {
                schema = v.at("/schema/openAPIV3Schema");
            }
        }
        assertNotNull(schema, "the CRD serves " + o.get("apiVersion").asText());
        List<String> problems = new ArrayList<>();
        crdProblems(o, schema, o.get("kind").asText(), problems);
        return problems;
    }

    private static void crdProblems(JsonNode v, JsonNode s, String path, List<String> problems) {
        if (s.path("x-kubernetes-int-or-string").asBoolean()) {
            if (!v.isTextual() && !v.isIntegralNumber()) {
                problems.add(path + ": neither an integer nor a string");
            }
            return;
        }
        switch (s.path("type").asText()) {
            case "object" -> {
                if (!v.isObject()) {
                    problems.add(path + ": not an object");
                    return;
                }
                s.path("required").forEach(r -> {
                    if (!v.has(r.asText())) {
                        problems.add(path + "." + r.asText() + ": required");
                    }
                });
                // An object without properties (metadata, which the API server checks itself) takes any field.
                if (!s.has("properties") && !s.has("additionalProperties")) {
                    return;
                }
                v.fields().forEachRemaining(e -> {
                    JsonNode field = s.path("properties").get(e.getKey());
                    if (field == null && s.path("additionalProperties").isObject()) {
                        field = s.get("additionalProperties");
                    }
                    if (field == null) {
                        problems.add(path + "." + e.getKey() + ": not a field of the CRD");
                    } else {
                        crdProblems(e.getValue(), field, path + "." + e.getKey(), problems);
                    }
                });
            }
            case "array" -> {
                if (!v.isArray()) {
                    problems.add(path + ": not an array");
                    return;
                }
                for (int i = 0; i < v.size(); i++) {
                    crdProblems(v.get(i), s.get("items"), path + "[" + i + "]", problems);
                }
            }
            case "string" -> {
                if (!v.isTextual()) {
                    problems.add(path + ": not a string");
                } else if (s.has("enum") && !YAML.convertValue(s.get("enum"), List.class).contains(v.asText())) {
                    problems.add(path + ": " + v.asText() + " is none of " + s.get("enum"));
                } else if (s.has("pattern") && !java.util.regex.Pattern.compile(s.get("pattern").asText()).matcher(v.asText()).find()) {
                    problems.add(path + ": " + v.asText() + " does not match " + s.get("pattern").asText());
                }
            }
            case "integer" -> {
                if (!v.isIntegralNumber()) {
                    problems.add(path + ": not an integer");
                }
            }
            case "boolean" -> {
                if (!v.isBoolean()) {
                    problems.add(path + ": not a boolean");
                }
            }
            default -> {
                // no type: anything (x-kubernetes-preserve-unknown-fields)
            }
        }
    }

    @Test
    void runsOnEveryNodeInTheHostNetwork() throws Exception {
        DaemonSet ds = daemonSet();
        PodSpec pod = ds.getSpec().getTemplate().getSpec();
        assertEquals(Boolean.TRUE, pod.getHostNetwork(), "the node's interfaces are only visible from the host network");
        assertEquals("ClusterFirstWithHostNet", pod.getDnsPolicy());
        assertTrue(pod.getTolerations().stream().anyMatch(ManifestsTest::toleratesEverything),
                "a toleration with operator Exists and no key tolerates every taint");
        Map<String, String> selector = ds.getSpec().getSelector().getMatchLabels();
        Map<String, String> labels = ds.getSpec().getTemplate().getMetadata().getLabels();
        assertTrue(labels.entrySet().containsAll(selector.entrySet()), "the selector must match the pod template");
        assertNotEquals(Boolean.TRUE, pod.getHostPID());
        assertNotEquals(Boolean.TRUE, pod.getHostIPC());
    }

    private static boolean toleratesEverything(Toleration t) {
        return "Exists".equals(t.getOperator()) && t.getKey() == null && t.getEffect() == null;
    }

    @Test
    void capturesWithNetRawOnlyNotPrivileged() throws Exception {
        Container c = container(daemonSet());
        SecurityContext sc = c.getSecurityContext();
        assertEquals(Boolean.FALSE, sc.getPrivileged());
        assertEquals(Boolean.FALSE, sc.getAllowPrivilegeEscalation());
        assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem());
        // LiveCommandTest.captureNeedsNetRawButNotNetAdmin: capture works with NET_ADMIN out of the bounding set.
        assertEquals(Set.of("NET_RAW"), Set.copyOf(sc.getCapabilities().getAdd()));
        assertEquals(List.of("ALL"), sc.getCapabilities().getDrop());
        assertEquals(1, sc.getCapabilities().getAdd().size());
        // The image loads JNA's stub from jna.boot.library.path (NativeDirTest): no writable directory is needed.
        assertTrue(c.getVolumeMounts().isEmpty(), () -> "no volume is mounted: " + c.getVolumeMounts());
        assertTrue(daemonSet().getSpec().getTemplate().getSpec().getVolumes().isEmpty());
    }

    @Test
    void imageArgumentsAndNodeName() throws Exception {
        Container c = container(daemonSet());
        assertTrue(c.getImage().startsWith("pcapdiag:"), c.getImage());
        assertFalse(c.getImage().endsWith(":latest"));
        List<String> args = c.getArgs();
        assertEquals("live", args.get(0));
        // The arguments must be ones `pcapdiag live` accepts.
        CommandLine.ParseResult parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));
        assertTrue(parsed.hasSubcommand());
        assertEquals("live", parsed.subcommand().commandSpec().name());
        assertEquals("9464", parsed.subcommand().matchedOptionValue("--metrics-port", 0).toString());
        assertEquals("jsonl", parsed.subcommand().matchedOptionValue("--format", null).toString());

        EnvVar node = c.getEnv().stream().filter(e -> e.getName().equals("NODE_NAME")).findFirst().orElseThrow();
        assertEquals("spec.nodeName", node.getValueFrom().getFieldRef().getFieldPath());
        assertNotNull(c.getResources().getRequests().get("cpu"));
        assertNotNull(c.getResources().getRequests().get("memory"));
        assertNotNull(c.getResources().getLimits().get("cpu"));
        assertNotNull(c.getResources().getLimits().get("memory"));
    }

    /**
     * The JVM fits the container: the heap is a share of the memory limit the JVM reads from its cgroup (no fixed -Xmx,
     * which the launcher would otherwise set at 512 MiB whatever the limit), the share leaves the JVM's own memory room,
     * and the manifest's PCAPDIAG_JAVA_OPTS, which replaces the image's, keeps the image's flags. The pod is
     * node-critical: scheduled and kept on a node under pressure, where its findings matter most.
     */
    @Test
    void theHeapIsAShareOfTheMemoryLimitAndThePodIsNodeCritical() throws Exception {
        DaemonSet ds = daemonSet();
        assertEquals("system-node-critical", ds.getSpec().getTemplate().getSpec().getPriorityClassName());
        Container c = container(ds);
        String opts = c.getEnv().stream().filter(e -> e.getName().equals("PCAPDIAG_JAVA_OPTS")).findFirst().orElseThrow().getValue();
        List<String> flags = List.of(opts.split("\\s+"));
        assertTrue(flags.stream().noneMatch(f -> f.startsWith("-Xmx") || f.startsWith("-Xms") || f.startsWith("-XX:MaxHeapSize")), opts);
        String share = flags.stream().filter(f -> f.startsWith("-XX:MaxRAMPercentage=")).findFirst().orElseThrow();
        double percent = Double.parseDouble(share.substring(share.indexOf('=') + 1));
        assertTrue(percent >= 25 && percent <= 75, share + ": the JVM needs room beside the heap, and the heap a share");
        String dockerfile = Files.readString(kubernetes().resolveSibling("docker").resolve("Dockerfile"), StandardCharsets.UTF_8);
        java.util.regex.Matcher image = java.util.regex.Pattern.compile("(?m)^ENV PCAPDIAG_JAVA_OPTS=\"([^\"]*)\"").matcher(dockerfile);
        if (image.find()) {
            assertTrue(flags.containsAll(List.of(image.group(1).split("\\s+"))), "the image's flags " + image.group(1) + " are kept");
        }
        // The launcher drops its own heap sizes for a MaxRAMPercentage (an -Xmx would win over it).
        String launcher = Files.readString(kubernetes().resolve("../../../scripts/pcapdiag").normalize(), StandardCharsets.UTF_8);
        assertTrue(launcher.contains("-XX:MaxRAMPercentage="), "scripts/pcapdiag gives way to -XX:MaxRAMPercentage");
        long limit = io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValueExact();
        long request = io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(c.getResources().getRequests().get("memory")).longValueExact();
        assertTrue(request <= limit);
        // The default --max-open (2^18 attempts, 320 bytes each, and 64 MiB beside them: AnalysisOptions) fits the heap.
        assertTrue(limit * percent / 100 >= (1L << 18) * 320 + (64L << 20), "the heap holds the default --max-open");
    }

    @Test
    void metricsPortProbesAndScrapeAnnotations() throws Exception {
        DaemonSet ds = daemonSet();
        Container c = container(ds);
        ContainerPort port = c.getPorts().stream().filter(p -> "metrics".equals(p.getName())).findFirst().orElseThrow();
        assertEquals(9464, port.getContainerPort());
        assertEquals("TCP", port.getProtocol());
        Map<String, String> ann = ds.getSpec().getTemplate().getMetadata().getAnnotations();
        assertEquals("true", ann.get("prometheus.io/scrape"));
        assertEquals(port.getContainerPort().toString(), ann.get("prometheus.io/port"));
        assertEquals("/metrics", ann.get("prometheus.io/path"));
        probe(c.getLivenessProbe(), "/-/healthy");
        probe(c.getReadinessProbe(), "/ready");
    }

    private static void probe(Probe p, String path) {
        assertNotNull(p);
        assertEquals(path, p.getHttpGet().getPath());
        assertEquals("metrics", p.getHttpGet().getPort().getStrVal());
    }

    @Test
    void dockerfileRunsTheArchivesLauncherOnABaseWithLibpcap() throws Exception {
        Path docker = kubernetes().resolveSibling("docker").resolve("Dockerfile");
        String text = Files.readString(docker, StandardCharsets.UTF_8);
        List<String> from = text.lines().filter(l -> l.startsWith("FROM ") || l.startsWith("ARG ")).toList();
        assertEquals(List.of("ARG BASE=debian:bookworm-slim", "FROM ${BASE}", "ARG VERSION=0.1.0"), from);
        assertTrue(text.contains("libpcap0.8"));
        assertTrue(text.lines().anyMatch(l -> l.matches("USER [1-9][0-9]*")), "the image's default user is not root");
        assertTrue(text.contains("ENTRYPOINT [\"/opt/pcapdiag/bin/pcapdiag\"]"), "the image runs the archive's launcher");
        assertFalse(text.contains("JAVA_TOOL_OPTIONS="), "JAVA_TOOL_OPTIONS makes the JVM print 'Picked up...' on every run");
        // Everything the Dockerfile copies is in the build context .dockerignore lets through, and nothing more: every
        // source of every COPY (all its words but the destination, continued lines joined).
        Set<String> copied = new TreeSet<>();
        text.replace("\\\n", " ").lines().filter(l -> l.startsWith("COPY ") || l.startsWith("ADD ")).forEach(l -> {
            String[] words = l.trim().split("\\s+");
            Arrays.asList(words).subList(1, words.length - 1).forEach(w -> copied.add(w.replace("${VERSION}", "*")));
        });
        Set<String> allowed = new TreeSet<>();
        Files.readAllLines(kubernetes().resolve("../../../.dockerignore").normalize()).stream()
                .filter(l -> l.startsWith("!")).forEach(l -> allowed.add(l.substring(1)));
        assertEquals(allowed, copied);
    }

    @Test
    void helpOfTheImagesEntryPointListsLive() {
        StringWriter out = new StringWriter();
        int code = Main.run(new String[] {"live", "--help"}, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(0, code);
        assertTrue(out.toString().contains("--metrics-port"));
    }

    /** Walks fabric8 model objects and collects keys the model did not recognise (its additionalProperties). */
    private static void unknownFields(Object o, String path, List<String> out, Map<Object, Boolean> seen) throws Exception {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                unknownFields(e, path + "[" + i++ + "]", out, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                unknownFields(e.getValue(), path + "." + e.getKey(), out, seen);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || !m.getName().startsWith("get")
                    || m.getDeclaringClass() == Object.class) {
                continue;
            }
            Object v = m.invoke(o);
            if (m.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    out.add(path + ": " + extra.keySet());
                }
                continue;
            }
            unknownFields(v, path + "." + m.getName().substring(3), out, seen);
        }
    }
}
