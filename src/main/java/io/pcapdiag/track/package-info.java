/**
 * The handshake tracker: the one place that holds state. It pairs every SYN with what answered it
 * (docs/design.md "Connection attempts") in capture time, in a bounded table whose evictions are counted.
 */
package io.pcapdiag.track;
