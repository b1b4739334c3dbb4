/**
 * The erasure codec side by side with Backblaze's JavaReedSolomon and Hadoop's pure-Java Reed–Solomon raw coder.
 */
package io.github.volpex.benchmarks.erasure;
