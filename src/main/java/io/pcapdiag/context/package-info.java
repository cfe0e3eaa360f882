/**
 * Context: everything the rules and causes know that is not in the packets, behind one read-only seam
 * ({@link io.pcapdiag.context.Context}). Each answer is a {@link io.pcapdiag.context.Fact} that names its source.
 */
package io.pcapdiag.context;
