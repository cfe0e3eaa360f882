/**
 * Policy, apart from state: which pattern a decided attempt shows (docs/design.md "Patterns"), how findings
 * are grouped, and what to tell the user about each. Rules see attempts, never bytes.
 */
package io.pcapdiag.rules;
