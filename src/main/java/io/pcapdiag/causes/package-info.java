/**
 * Causes: for each finding, the candidate causes of docs/design.md's cause table, each judged against the
 * context (confirmed, consistent, contradicted, unknown) with the facts that decided it and its fix.
 */
package io.pcapdiag.causes;
