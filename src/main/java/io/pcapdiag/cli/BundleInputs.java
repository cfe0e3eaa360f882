package io.pcapdiag.cli;

import io.pcapdiag.collect.Bundle;
import io.pcapdiag.collect.Manifest;
import io.pcapdiag.live.InterfacePatterns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Analyze's inputs that are bundles of {@code pcapdiag collect}, turned into what they hold: captures, node facts, a
 * cluster snapshot. Apart from {@link ContextFiles}, which loads the node facts' classes, so that analyze of plain
 * captures loads none of them.
 */
final class BundleInputs {
    private BundleInputs() {
    }

    /**
     * The bundles among analyze's inputs ({@code pcapdiag collect}'s directories and archives), each replaced by its
     * captures, as if they and the bundle's node facts and cluster snapshot had been given on their own: the captures'
     * files take the bundle's place in {@code files}, a label each names their node and interface in {@code labels}
     * (when the manifest knows the node, and the interface is not {@code any}, whose Linux cooked headers name it;
     * with several bundles each capture gets its node), the node facts join {@code --node-facts} and the first
     * snapshot becomes {@code --cluster}. Given {@code --node-facts} or {@code --cluster} replace the bundles' own.
     * What a bundle could not take, and its captures' kernel drops, are said one line each.
     *
     * @return {@code files} with the bundles replaced, or {@code files} itself when there is none
     */
    static List<String> bundles(List<String> files, List<String> labels, AnalysisOptions options, Consumer<String> warn) {
        if (files.stream().noneMatch(Bundle::is)) {
            return files;
        }
        boolean several = files.stream().filter(Bundle::is).count() > 1;
        boolean ownFacts = !options.nodeFacts.isEmpty();
        boolean ownCluster = options.cluster != null;
        List<String> out = new ArrayList<>();
        for (String f : files) {
            if (!Bundle.is(f)) {
                out.add(f);
                continue;
            }
            Bundle.Opened b;
            try {
                b = Bundle.open(Path.of(f), warn);
            } catch (IOException e) {
                throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
            }
            Manifest m = b.manifest();
            m.notTaken().forEach(n -> warn.accept(f + ": no " + n.what().replace('_', ' ') + " in the bundle: " + n.why()));
            if (m.captureFiles().isEmpty()) {
                throw new IllegalArgumentException(f + ": the bundle holds no capture");
            }
            for (Manifest.CaptureFile c : m.captureFiles()) {
                String file = b.file(c.file()).toString();
                out.add(file);
                if (c.droppedByKernel() > 0) {
                    warn.accept(f + ": the kernel dropped " + c.droppedByKernel() + " packets on " + c.iface()
                            + " during the capture: attempts among them are missing");
                }
                if (m.node() != null && (several || !c.iface().equals(InterfacePatterns.ANY))) {
                    labels.add(file + "=" + m.node() + (c.iface().equals(InterfacePatterns.ANY) ? "" : "/" + c.iface()));
                }
            }
            if (m.nodeFacts() != null) {
                if (ownFacts) {
                    warn.accept(f + ": the bundle's node facts are not read: --node-facts replaces them");
                } else {
                    options.nodeFacts.add(b.file(m.nodeFacts()));
                }
            }
            if (m.cluster() != null) {
                if (ownCluster) {
                    warn.accept(f + ": the bundle's cluster snapshot is not read: --cluster replaces it");
                } else if (options.cluster == null) {
                    options.cluster = b.file(m.cluster());
                }
            }
        }
        return out;
    }
}
