/**
 * The erasure codec side by side with Backblaze's JavaReedSolomon and Hadoop's pure-Java Reed–Solomon and XOR raw
 * coders.
 */
package io.github.volpex.benchmarks.erasure;
