package io.pcapdiag.node;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * kube-proxy's mode from its metrics server ({@code GET /proxyMode} on 127.0.0.1:10249 by default, the namespace's
 * loopback: kube-proxy runs in the host network namespace). It answers {@code iptables}, {@code ipvs},
 * {@code nftables} or {@code kernelspace}.
 */
final class KubeProxy {
    static final String DEFAULT_URL = "http://127.0.0.1:10249/proxyMode";
    private static final int TIMEOUT_MILLIS = 1000;

    private KubeProxy() {
    }

    static OrUnknown<String> mode(String url) {
        HttpURLConnection c = null;
        try {
            // NO_PROXY: an http_proxy setting must not send a loopback request elsewhere.
            c = (HttpURLConnection) URI.create(url).toURL().openConnection(Proxy.NO_PROXY);
            c.setConnectTimeout(TIMEOUT_MILLIS);
            c.setReadTimeout(TIMEOUT_MILLIS);
            int status = c.getResponseCode();
            if (status != 200) {
                return OrUnknown.unknown(url + " answered HTTP " + status);
            }
            String body;
            try (InputStream in = c.getInputStream()) {
                body = new String(in.readNBytes(256), StandardCharsets.UTF_8).trim();
            }
            if (!body.matches("[a-z][a-z0-9-]{0,31}")) {
                return OrUnknown.unknown(url + " answered '" + Reasons.oneLine(body) + "', not a proxy mode");
            }
            return OrUnknown.known(body);
        } catch (IOException | IllegalArgumentException e) {
            String m = e.getMessage();
            return OrUnknown.unknown(url + ": " + Reasons.oneLine(m == null ? e.getClass().getSimpleName() : m));
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }
}
