/**
 * The cluster as the Kubernetes API describes it: snapshots ({@code kubectl get -o json}) and live informers
 * parsed with the fabric8 model into one immutable index of Services, endpoints, pods, nodes and policies.
 */
package io.pcapdiag.cluster;
