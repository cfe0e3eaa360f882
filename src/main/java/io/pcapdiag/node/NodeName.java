package io.pcapdiag.node;

import java.nio.file.Path;
import java.util.Map;

/**
 * Which node this is: {@code --node}, else NODE_NAME (what a DaemonSet sets from spec.nodeName through the downward
 * API), else the hostname, which is the node name unless the kubelet was given --hostname-override.
 */
record NodeName(OrUnknown<String> name, String source) {
    static final String OPTION = "--node";
    static final String ENV = "NODE_NAME";
    static final String HOSTNAME = "hostname";

    static NodeName resolve(String option, Map<String, String> env, Path procSys) {
        if (option != null && !option.isBlank()) {
            return new NodeName(OrUnknown.known(option.trim()), OPTION);
        }
        String e = env.get(ENV);
        if (e != null && !e.isBlank()) {
            return new NodeName(OrUnknown.known(e.trim()), ENV);
        }
        // The UTS namespace's name, as uname -n gives it; no DNS lookup.
        OrUnknown<String> host = ProcFiles.fact(procSys.resolve("kernel/hostname"));
        return new NodeName(host, HOSTNAME);
    }
}
