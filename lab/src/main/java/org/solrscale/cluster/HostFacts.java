package org.solrscale.cluster;

/** What a host is, for telling two runs apart: CPU model, cores, memory, OS and kernel. */
public record HostFacts(String cpuModel, int cores, long memoryBytes, String os, String kernel) {}
