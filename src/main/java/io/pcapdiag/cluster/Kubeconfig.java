package io.pcapdiag.cluster;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** How pcapdiag reaches an API server: the one reading of {@code --kubeconfig} that live and collect share. */
public final class Kubeconfig {
    private Kubeconfig() {
    }

    /**
     * The client configuration of {@code kubeconfig} when given, else fabric8's own discovery (the pod's service
     * account, $KUBECONFIG, ~/.kube/config). A file that cannot be read, or is no kubeconfig, is an {@link
     * IllegalArgumentException} of one line naming it.
     */
    public static Config load(Path kubeconfig) {
        if (kubeconfig == null) {
            return Config.autoConfigure(null);
        }
        try {
            return Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("--kubeconfig " + kubeconfig + ": cannot read it: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException("--kubeconfig " + kubeconfig + ": not a kubeconfig: "
                    + m.lines().findFirst().orElse(m).trim(), e);
        }
    }
}
